import type { Transition } from "@fleet-auditor/audit";
import type { Runtime } from "@fleet-auditor/keb";
import { failingAudit, KEB_GROUP_BY, kebPresenter } from "@fleet-auditor/keb-audits";
import { decodeMessage, statusRank, toUpdate } from "@fleet-auditor/metaserver";
import { renderDigests } from "@fleet-auditor/render";
import { describe, expect, it } from "vitest";
import { edited, finding } from "../helpers/findings.ts";

// Text from KEB or an edge node must never index a plain object: `constructor`, `toString` or
// `__proto__` would reach Object.prototype.

const PROTOTYPE_KEYS = ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__", "isPrototypeOf"];

function runtime(state: string): Runtime {
  return {
    instanceID: "i-1",
    runtimeID: "r-1",
    globalAccountID: "ga",
    subAccountID: "sa",
    region: "eu-central-1",
    subAccountRegion: "cf-eu10",
    shootName: "c-1",
    serviceClassID: "x",
    serviceClassName: "kymaruntime",
    servicePlanID: "p",
    servicePlanName: "aws",
    provider: "AWS",
    status: { state, createdAt: "2026-11-01T00:00:00Z", modifiedAt: "2026-11-01T00:00:00Z" },
  } as unknown as Runtime;
}

describe("untrusted text as a lookup key", () => {
  it.each(PROTOTYPE_KEYS)("a KEB state %j is not flagged by the failing audit", (state) => {
    expect(failingAudit.classify(runtime(state))).toBeUndefined();
  });

  it.each(PROTOTYPE_KEYS)("an Application status %j ranks lowest, as any unknown status", (status) => {
    expect(statusRank(status)).toBe(0);
    const m = decodeMessage(
      JSON.stringify({
        header: { msg_id: "m", timestamp: 1 },
        route: { resource: "node/e/null" },
        content: { ID: "a", Key: "/core/v1/pods/default/p", Verb: "get", Status: status },
      }),
    );
    expect(toUpdate(m, m.applications[0] as NonNullable<(typeof m.applications)[0]>).rank).toBe(0);
  });

  it.each(PROTOTYPE_KEYS)("a reason %j renders as text in every variant", (reason) => {
    const f = edited(finding("i-1"), (flat) => ({
      state: reason,
      operation: { ...(flat.operation as object), errorReason: reason },
    }));
    const t: Transition = {
      kind: "firing",
      key: "i-1",
      state: reason,
      previousState: null,
      severity: "critical",
      finding: f,
      since: "2026-11-30T05:00:00.000Z",
    };
    const [m] = renderDigests(
      {
        audit: "failing",
        groupBy: KEB_GROUP_BY,
        presenter: kebPresenter,
        runId: "r",
        at: "2026-11-30T06:00:00.000Z",
        complete: true,
        incompleteReason: null,
        listed: 1,
        flagged: 1,
        report: { stored: true, command: "x" },
      },
      [t],
    );
    expect(m?.message).not.toMatch(/function|\[object Object\]/);
    expect(m?.attributes.severity).toBe("critical");
  });
});
