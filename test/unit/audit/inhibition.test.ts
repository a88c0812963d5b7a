import { type Finding, type InhibitRule, inhibitor, parseMatchers } from "@fleet-auditor/audit";
import { describe, expect, it } from "vitest";

// Alertmanager's inhibition (`inhibit/inhibit_test.go`), its cases ported where they apply: a
// finding here is a key and labels, and a source "fires" when it is given to the inhibitor (what
// fires is the diff's to say; a resolved source is one not given).

let n = 0;
const f = (labels: Record<string, string>, key = `f-${++n}`): Finding => ({
  key,
  labels,
  severity: "warning",
  summary: key,
});
const rule = (source: string[], target: string[], equal: string[] = []): InhibitRule => ({
  sourceMatchers: source.flatMap((m) => parseMatchers(m)),
  targetMatchers: target.flatMap((m) => parseMatchers(m)),
  equal,
});

describe("one rule's equal labels (TestInhibitRuleHasEqual)", () => {
  const anySource = rule(["s=1"], ["t=1"]);

  it("inhibits nothing without a firing source", () => {
    expect(inhibitor([anySource], [])(f({ t: "1", a: "b" }))).toBeUndefined();
  });

  it("lets any source inhibit when the rule names no equal label", () => {
    const source = f({ s: "1" }, "source");
    expect(inhibitor([anySource], [source])(f({ t: "1", a: "b" }))).toBe("source");
  });

  it("inhibits nothing once the source no longer fires", () => {
    const byAB = rule(["s=1"], ["t=1"], ["a", "b"]);
    const fired = [f({ s: "1", a: "b", b: "c" }, "gone")];
    expect(inhibitor([byAB], fired)(f({ t: "1", a: "b", b: "c" }))).toBe("gone");
    expect(inhibitor([byAB], [])(f({ t: "1", a: "b", b: "c" }))).toBeUndefined();
  });

  it("inhibits when a firing source has the same equal values, whatever its other labels", () => {
    const byA = rule(["s=1"], ["t=1"], ["a"]);
    const sources = [f({ s: "1", a: "b", c: "d" }, "one"), f({ s: "1", a: "b", c: "f" }, "two")];
    expect(inhibitor([byA], sources)(f({ t: "1", a: "b" }))).toBe("one");
  });

  it("does not inhibit when an equal label's values differ", () => {
    const byA = rule(["s=1"], ["t=1"], ["a"]);
    const sources = [f({ s: "1", a: "c", c: "d" }), f({ s: "1", a: "c", c: "f" })];
    expect(inhibitor([byA], sources)(f({ t: "1", a: "b" }))).toBeUndefined();
  });

  it("reads an equal label absent on both sides as the same empty value, as Alertmanager", () => {
    const byNode = rule(["state=refused"], ["state=stuck"], ["node"]);
    const source = f({ state: "refused" }, "no-node");
    expect(inhibitor([byNode], [source])(f({ state: "stuck" }))).toBe("no-node");
    expect(inhibitor([byNode], [source])(f({ state: "stuck", node: "" }))).toBe("no-node");
    expect(inhibitor([byNode], [source])(f({ state: "stuck", node: "edge-1" }))).toBeUndefined();
  });
});

describe("rules and both sides (TestInhibitRuleMatches, TestInhibitRuleMatchers)", () => {
  // Source 1 matches rule 1's source side only; source 2 matches both sides of rule 2.
  const source1 = f({ s1: "1", t1: "2", e: "1" }, "source-1");
  const source2 = f({ s2: "1", t2: "1", e: "1" }, "source-2");

  it("holds back each rule's targets with equal labels, and a finding that matches both sides only by a one-sided source", () => {
    const inhibits = inhibitor(
      [rule(["s1=1"], ["t1=1"], ["e"]), rule(["s2=1"], ["t2=1"], ["e"])],
      [source1, source2],
    );
    const cases: Array<[Record<string, string>, string | undefined]> = [
      [{ t1: "1", e: "1" }, "source-1"],
      [{ t2: "1", e: "1" }, "source-2"],
      [{ t1: "1", t3: "1", e: "1" }, "source-1"],
      [{ t1: "1", t2: "1", e: "1" }, "source-1"],
      [{ t1: "0", e: "1" }, undefined],
      // Both sides of rule 1: source 1 matches its source side only, so it inhibits.
      [{ s1: "1", t1: "1", e: "1" }, "source-1"],
      // Both sides of rule 2: source 2 matches both sides too, so it does not.
      [{ s2: "1", t2: "1", e: "1" }, undefined],
      [{ t1: "1", e: "0" }, undefined],
    ];
    for (const [labels, by] of cases) expect(inhibits(f(labels)), JSON.stringify(labels)).toBe(by);
  });

  it("takes any matcher on either side, a negative one too", () => {
    const inhibits = inhibitor(
      [rule(["s1=1"], ["t1!=1"], ["e"]), rule(["s2=1"], ["t2=1"], ["e"])],
      [source1, source2],
    );
    const cases: Array<[Record<string, string>, boolean]> = [
      [{ t1: "1", e: "1" }, false],
      [{ t2: "1", e: "1" }, true],
      [{ t1: "1", t3: "1", e: "1" }, false],
      [{ t1: "1", t2: "1", e: "1" }, true],
      [{ t1: "0", e: "1" }, true],
      [{ s1: "1", t1: "1", e: "1" }, false],
      // Rule 1's target side matches source 2 (t1 is not 1), which fires with e=1.
      [{ s2: "1", t2: "1", e: "1" }, true],
      [{ t1: "1", e: "0" }, false],
    ];
    for (const [labels, inhibited] of cases)
      expect(inhibits(f(labels)) !== undefined, JSON.stringify(labels)).toBe(inhibited);
  });

  it("never lets a finding inhibit itself, though it matches both sides", () => {
    const both = f({ severity: "high", state: "refused", node: "edge-1" }, "itself");
    const inhibits = inhibitor([rule(["state=refused"], ["node=~edge-.*"], ["node"])], [both]);
    expect(inhibits(both)).toBeUndefined();
    // Another finding on that node, matching the target side only, is held back by it.
    expect(inhibits(f({ state: "stuck", node: "edge-1" }))).toBe("itself");
  });

  it("tries the rules in their order and names the least source key, whatever the order of the findings", () => {
    const rules = [rule(["kind=node"], ["kind=app"], ["node"]), rule(["kind=zone"], ["kind=app"], ["zone"])];
    const target = f({ kind: "app", node: "n1", zone: "z1" });
    const sources = [
      f({ kind: "zone", zone: "z1" }, "a-zone"),
      f({ kind: "node", node: "n1" }, "node-b"),
      f({ kind: "node", node: "n1" }, "node-a"),
    ];
    expect(inhibitor(rules, sources)(target)).toBe("node-a");
    expect(inhibitor(rules, [...sources].reverse())(target)).toBe("node-a");
    // Without a source for the first rule, the second holds it back.
    expect(inhibitor(rules, [sources[0] as Finding])(target)).toBe("a-zone");
    expect(inhibitor([], sources)(target)).toBeUndefined();
  });

  it("judges a fleet of 20,000 findings by its equal values", () => {
    const fleet = Array.from({ length: 20_000 }, (_, i) =>
      i % 10 === 0
        ? f({ state: "refused", node: `edge-${i}` }, `refusals:edge-${i}`)
        : f({ state: "stuck", node: `edge-${i - (i % 10)}` }, `app:${i}`),
    );
    const inhibits = inhibitor([rule(["state=refused"], ["state=stuck"], ["node"])], fleet);
    const held = fleet.filter((x) => inhibits(x) !== undefined);
    expect(held).toHaveLength(18_000);
    expect(inhibits(fleet[19_999] as Finding)).toBe("refusals:edge-19990");
  });
});
