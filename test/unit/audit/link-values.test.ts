import { fillTemplate, linkValues } from "@fleet-auditor/audit";
import { kebPresenter } from "@fleet-auditor/keb-audits";
import { edgePresenter, stuckFinding } from "@fleet-auditor/kubeedge-audit";
import { describe, expect, it } from "vitest";
import { finding } from "../../helpers/findings.ts";

// Link templates are filled from a finding's labels, and from the names templates used before
// labels, so a deployed RUNTIME_URL_TEMPLATE keeps giving the same link.

const fill = (template: string, values: Record<string, string | undefined>) => fillTemplate(template, values);

describe("link template values", () => {
  const keb = linkValues(finding("inst 1"), kebPresenter);
  const edge = linkValues(
    stuckFinding({
      id: "a-1",
      node: "edge-7",
      key: "/core/v1/pods/ns-1/p-1",
      verb: "update",
      resource: "pods",
      status: "InApplying",
      since: "2026-11-30T05:00:00.000Z",
      firstSeenAt: "2026-11-30T05:00:00.000Z",
    }),
    edgePresenter,
  );

  it("fill any label of a finding, URL-encoded", () => {
    expect(fill("https://c.example/{plan}/{region}/{instance}", keb)).toBe(
      "https://c.example/aws/eu-central-1/inst%201",
    );
    expect(fill("https://c.example/{node}/{namespace}/{name}?s={status}", edge)).toBe(
      "https://c.example/edge-7/ns-1/p-1?s=InApplying",
    );
  });

  it("keep the names of before: a runtime's IDs, an edge finding's key and its node as region", () => {
    expect(fill("https://c.example/runtimes/{instanceID}?rt={runtimeID}&ga={globalAccountID}", keb)).toBe(
      "https://c.example/runtimes/inst%201?rt=rt-inst%201&ga=ga-1",
    );
    expect(fill("https://c.example/{region}{key}", edge)).toBe(
      "https://c.example/edge-7%2Fcore%2Fv1%2Fpods%2Fns-1%2Fp-1",
    );
  });

  it("give no link for a label the finding does not carry", () => {
    expect(fill("https://c.example/runtimes/{instanceID}", edge)).toBeUndefined();
    expect(fill("https://c.example/{node}", keb)).toBeUndefined();
  });
});
