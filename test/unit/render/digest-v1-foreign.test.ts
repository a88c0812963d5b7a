import {
  type DigestMessage,
  type Finding,
  fillTemplate,
  shortTime,
  slackCode,
  slackText,
} from "@fleet-auditor/audit";
import { EDGE_GROUP_BY, edgePresenter, stuckFinding } from "@fleet-auditor/kubeedge-audit";
import { DIGEST_TIME, DigestV1Schema, renderDigests } from "@fleet-auditor/render";
import { describe, expect, it } from "vitest";
import { digestV1JsonSchema } from "../../../tools/digest-schema-json.ts";
import { edited } from "../../helpers/findings.ts";
import { schemaValidator } from "../../helpers/json-schema.ts";
import { ctx, editedT, t } from "../../helpers/transitions.ts";

const STUCK = {
  id: "a",
  node: "edge-1",
  key: "/core/v1/pods/a/b",
  verb: "update",
  resource: "pods",
  status: "InApplying",
  since: "2026-11-30T05:00:00.000Z",
  firstSeenAt: "2026-11-30T05:00:00.000Z",
};
const STUCK_DETAIL = {
  what: "stuck",
  node: "edge-1",
  key: "/core/v1/pods/a/b",
  verb: "update",
  resource: "pods",
  status: "InApplying",
  reason: "",
};

// The Slack function renders any digest its schema takes, including one another publisher put on
// the topic: the schema holds times to ISO date-times and links to plain https URLs, and the
// digests this product builds must pass it whatever KEB or the edge said.

const structured = (m: DigestMessage | undefined): unknown =>
  JSON.parse((JSON.parse(m?.message ?? "{}") as { default: string }).default);

describe("the structured digest's times and links", () => {
  it("are held to the pattern the builder uses, in zod and in the committed JSON Schema", () => {
    const schema = digestV1JsonSchema() as { properties: { at: { pattern: string; format: string } } };
    expect(schema.properties.at).toMatchObject({ format: "date-time", pattern: DIGEST_TIME.source });
  });

  it("stay valid in a digest built from odd KEB and edge times, which are re-spelled or left out", () => {
    const odd = editedT(t(1, "changed"), (_, op) => ({
      expiredAt: "2026-11-30T06:00:00.123456789+02:00",
      operation: { ...op, updatedAt: "2026-02-30T06:00:00Z" },
    }));
    odd.previous = edited(odd.finding, (_, op) => ({ operation: { ...op, updatedAt: "garbage" } }));
    const stuck = stuckFinding(STUCK);
    const edge: Finding = { ...stuck, detail: { ...STUCK_DETAIL, since: "9000000000000000" } };
    const stale = { ...t(3), since: "not a time" };
    const digest = DigestV1Schema.parse(structured(renderDigests(ctx, [odd, stale])[0]));
    const edgeDigest = DigestV1Schema.parse(
      structured(
        renderDigests({ ...ctx, audit: "applications", groupBy: EDGE_GROUP_BY, presenter: edgePresenter }, [
          {
            kind: "firing",
            key: edge.key,
            state: "stuck",
            previousState: null,
            severity: "warning",
            finding: edge,
            since: ctx.at,
          },
        ])[0],
      ),
    );
    const byId = new Map(digest.transitions.map((x) => [x.instanceID, x]));
    expect(byId.get("instance-00001")).toMatchObject({
      expiredAt: "2026-11-30T06:00:00.123456789+02:00",
      operation: { updatedAt: "2026-03-02T06:00:00.000Z" },
    });
    expect(byId.get("instance-00001")?.previousOperation?.updatedAt).toBeUndefined();
    expect(edgeDigest.transitions[0]?.edge).toMatchObject({ what: "stuck", node: "edge-1" });
    expect(edgeDigest.transitions[0]?.edge?.since).toBeUndefined();
    expect(byId.get("instance-00003")?.since).toBe(ctx.at);
  });

  it("give no link that is not https, holds <, > or |, or would carry a value no URL can", () => {
    const values = { instanceID: "a|b<c>", runId: "run-1" };
    expect(fillTemplate("https://console.example/runtimes/{instanceID}", values)).toBe(
      "https://console.example/runtimes/a%7Cb%3Cc%3E",
    );
    expect(fillTemplate("http://console.example/runtimes/{instanceID}", values)).toBeUndefined();
    expect(fillTemplate("https://console.example/r|{runId}", values)).toBeUndefined();
    expect(fillTemplate("https://console.example/runs/{runId}", { runId: ".." })).toBeUndefined();
    expect(fillTemplate("https://console.example/runs/{runId}", { runId: "a\ud800b" })).toBeUndefined();
    expect(fillTemplate("https://bücher.example/runs/{runId}", values)).toBe(
      "https://xn--bcher-kva.example/runs/run-1",
    );
    const [m] = renderDigests({ ...ctx, links: { runtime: "http://console.example/{instanceID}" } }, [t(1)]);
    const digest = DigestV1Schema.parse(structured(m));
    expect(digest.transitions[0]?.links).toEqual({});
  });

  it("refuse, in the JSON Schema as in zod, a digest whose time is text or whose link could break out", () => {
    const good = structured(renderDigests(ctx, [t(1)])[0]) as Record<string, unknown>;
    const validate = schemaValidator(digestV1JsonSchema());
    expect(validate(good)).toBe(true);
    const bad: Array<Record<string, unknown>> = [
      { ...good, at: "<!channel>" },
      { ...good, at: "2026-11-30 06:00" },
      { ...good, report: { stored: true, command: "x", url: "https://ok.example/|<!channel>" } },
      { ...good, report: { stored: true, command: "x", url: "javascript:alert(1)" } },
      { ...good, report: { stored: true, command: "x", url: "https://ok.example/a b" } },
    ];
    for (const d of bad) {
      expect(validate(d), JSON.stringify([d.at, d.report])).toBe(false);
      expect(DigestV1Schema.safeParse(d).success).toBe(false);
    }
  });
});

describe("Slack text", () => {
  it("shows formatting characters from outside as look-alikes, but keeps a snake_case word and code as they are", () => {
    expect(slackText("*bold* _it_ ~strike~ err_keb_timeout a*b")).toBe(
      "∗bold∗ ˍitˍ ∼strike∼ err_keb_timeout a∗b",
    );
    expect(slackCode("*bold* _it_")).toBe("`*bold* _it_`");
  });

  it("never prints a time that does not parse as it is", () => {
    expect(shortTime("<!channel>")).toBe("an unknown time");
    expect(shortTime("2026-11-30T06:00:00Z")).toBe("2026-11-30 06:00 UTC");
  });
});
