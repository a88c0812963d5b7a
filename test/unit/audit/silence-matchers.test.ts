import {
  incidentMatchers,
  matchesAll,
  parseMatchers,
  type Silence,
  SilenceMatcherError,
  silenceState,
  silencing,
} from "@fleet-auditor/audit";
import { stuckFinding } from "@fleet-auditor/kubeedge-audit";
import { describe, expect, it } from "vitest";
import { finding } from "../../helpers/findings.ts";

const NOW = new Date("2026-12-01T12:00:00.000Z");
const keb = finding("inst-1"); // failed, eu-central-1, aws, err_provisioning
const edge = stuckFinding({
  id: "app-1",
  node: "edge-2",
  key: "/apps/v1/deployments/default/nginx",
  verb: "get",
  resource: "deployments",
  status: "InApplying",
  since: "2026-12-01T11:00:00.000Z",
  firstSeenAt: "2026-12-01T11:00:00.000Z",
});

const silence = (over: Partial<Silence>): Silence => ({
  id: "s-1",
  match: [],
  startsAt: "2026-12-01T00:00:00.000Z",
  endsAt: "2026-12-02T00:00:00.000Z",
  createdBy: "ops",
  comment: "maintenance",
  ...over,
});
const matches = (texts: string[], f = keb): boolean => matchesAll(texts.flatMap(parseMatchers), f.labels);

describe("label matchers", () => {
  it("match with Alertmanager's four operators", () => {
    expect(matches(["region=eu-central-1"])).toBe(true);
    expect(matches(["region!=eu-central-1"])).toBe(false);
    expect(matches(["reason=~err_.*"])).toBe(true);
    expect(matches(["reason!~err_.*"])).toBe(false);
    expect(matches(["region=eu-central-1", "plan=trial"])).toBe(false);
  });

  it("anchor regular expressions at both ends, as Alertmanager does", () => {
    expect(matches(["reason=~err"])).toBe(false);
    expect(matches(["reason=~provisioning"])).toBe(false);
    expect(matches(["reason=~.*provisioning"])).toBe(true);
  });

  it("read a label a finding does not have as empty", () => {
    expect(matches(["node="])).toBe(true);
    expect(matches(['node=""'])).toBe(true);
    expect(matches(['node!=""'])).toBe(false);
    expect(matches(["node=~.+"])).toBe(false);
    expect(matches(["node=~.*"])).toBe(true);
    expect(matches(["region="], edge)).toBe(true);
    // A label the finding has, even empty-looking ones: `!=""` requires it.
    expect(matches(['region!=""'])).toBe(true);
    expect(matches(['region=""'])).toBe(false);
  });

  it("anchor a quoted expression, and one in a braced list, as a bare one", () => {
    expect(matches(['reason=~"err"'])).toBe(false);
    expect(matches(['{reason=~"err_.*", region="eu-central-1"}'])).toBe(true);
    expect(matches(['{reason=~"err_.*", region="eu-central"}'])).toBe(false);
    expect(matches(['reason=~"provisioning|err_provisioning"'])).toBe(true);
    // The alternation is inside the anchors: `^(?:err|x)$`, not `^err|x$`.
    expect(matches(["reason=~err|x"])).toBe(false);
  });

  it("let . stop at a line break unless the expression says (?s), as Go's regexp does", () => {
    // Findings' labels are bounded to one line; the rule is Alertmanager's all the same.
    const twoLines = { ...keb, labels: { ...keb.labels, reason: "quota\nexceeded" } };
    const holds = (op: "=~" | "!~", value: string): boolean =>
      matchesAll([{ name: "reason", op, value }], twoLines.labels);
    expect(holds("=~", "quota.exceeded")).toBe(false);
    expect(holds("=~", "(?s)quota.exceeded")).toBe(true);
    expect(holds("=~", "quota.*")).toBe(false);
    expect(holds("!~", "quota.*")).toBe(true);
    // `$` is the end of the value, not of a line, unless the expression says `(?m)`.
    expect(holds("=~", "quota$\\n.*")).toBe(false);
    expect(holds("=~", "(?m)quota$\\n.*")).toBe(true);
    expect(matches(['reason=~"(?s)quota.exceeded"'], twoLines)).toBe(true);
    expect(matches([String.raw`reason="quota\nexceeded"`], twoLines)).toBe(true);
  });

  it("give an edge finding its node, verb, resource, namespace, name and status", () => {
    expect(edge.labels).toMatchObject({
      node: "edge-2",
      verb: "get",
      resource: "deployments",
      namespace: "default",
      name: "nginx",
      status: "InApplying",
      state: "stuck",
    });
  });

  it("run on a linear-time engine: a backtracking pattern over a long value answers", () => {
    const long = { ...keb, labels: { ...keb.labels, region: `${"a".repeat(50_000)}b` } };
    expect(matches(["region=~(a+)+$"], long)).toBe(false);
    expect(matches(["region=~(a|aa)+b"], long)).toBe(true);
  });

  it("refuse what cannot be a matcher, naming the problem", () => {
    expect(() => parseMatchers("region")).toThrow(SilenceMatcherError);
    expect(() => parseMatchers("Region=x")).toThrow(/label name/);
    expect(() => parseMatchers("reason=~(")).toThrow(/RE2/);
    expect(() => parseMatchers("reason=~(?<=x)y")).toThrow(/RE2/);
    expect(() => parseMatchers(`reason=~${"a".repeat(1_001)}`)).toThrow(/at most 1000/);
  });

  it("let a stored expression that no longer compiles match nothing, without throwing", () => {
    expect(matchesAll([{ name: "reason", op: "=~", value: "(" }], keb.labels)).toBe(false);
    expect(matchesAll([{ name: "reason", op: "!~", value: "(" }], keb.labels)).toBe(false);
  });
});

describe("silences", () => {
  it("silence with label matchers", () => {
    const s = silence({ match: parseMatchers("{reason=~err_.*, plan!=trial}") });
    expect(silencing(keb, "failing", [s], NOW)?.id).toBe("s-1");
    expect(
      silencing({ ...keb, labels: { ...keb.labels, plan: "trial" } }, "failing", [s], NOW),
    ).toBeUndefined();
  });

  it("match a stored silence by its matchers as they were stored, whatever their text would read as now", () => {
    // Earlier releases took `--match reason=a,b` and `--match 'reason=~err\.x'` as one matcher
    // each and stored the values as typed; the store keeps matchers, never their text.
    const labels = { ...keb.labels, reason: "quota, retry", region: "eu\\1" };
    const stored = silence({
      match: [
        { name: "reason", op: "=", value: "quota, retry" },
        { name: "region", op: "=~", value: "eu\\\\1" },
      ],
    });
    expect(silencing({ ...keb, labels }, "failing", [stored], NOW)?.id).toBe("s-1");
  });

  it("never silence everything: a silence without a matcher matches nothing", () => {
    expect(silencing(keb, "failing", [silence({ match: [] })], NOW)).toBeUndefined();
    expect(silencing(keb, "failing", [silence({ audit: "failing" })], NOW)).toBeUndefined();
  });
});

describe("planned and incident silences", () => {
  const window = {
    id: "s-plan",
    match: [{ name: "region", op: "=" as const, value: "eu-central-1" }],
    startsAt: "2026-12-24T22:00:00.000Z",
    endsAt: "2026-12-25T02:00:00.000Z",
    createdBy: "sre",
    comment: "maintenance",
  };
  it("silence nothing before their start, then until their end", () => {
    const f = finding("x");
    const at = (iso: string) => new Date(iso);
    expect(silenceState(window, at("2026-12-24T21:59:59Z"))).toBe("pending");
    expect(silencing(f, "failing", [window], at("2026-12-24T21:59:59Z"))).toBeUndefined();
    expect(silenceState(window, at("2026-12-24T22:00:00Z"))).toBe("active");
    expect(silencing(f, "failing", [window], at("2026-12-24T22:00:00Z"))?.id).toBe("s-plan");
    expect(silenceState(window, at("2026-12-25T02:00:00Z"))).toBe("expired");
    expect(silencing(f, "failing", [window], at("2026-12-25T02:00:00Z"))).toBeUndefined();
  });

  it("take an incident's groupBy values as matchers, an empty value as the empty expression", () => {
    const match = incidentMatchers({ state: "failed", reason: "", region: "eu-central-1" });
    expect(match).toEqual([
      { name: "state", op: "=", value: "failed" },
      { name: "reason", op: "=~", value: "" },
      { name: "region", op: "=", value: "eu-central-1" },
    ]);
    const silence = { ...window, match, startsAt: "2026-01-01T00:00:00Z", endsAt: "2027-01-01T00:00:00Z" };
    const now = new Date("2026-12-01T00:00:00Z");
    // The helper's finding has a reason: the incident without one does not cover it.
    expect(silencing(finding("x"), "failing", [silence], now)).toBeUndefined();
    const withReason = { ...silence, match: incidentMatchers({ state: "failed", region: "eu-central-1" }) };
    expect(silencing(finding("x"), "failing", [withReason], now)?.id).toBe("s-plan");
  });
});
