import {
  committable,
  DEFAULT_POLICY,
  type DiffResult,
  diffSnapshot,
  type Finding,
  type Silence,
  type SnapshotChange,
  type SnapshotEntry,
} from "@fleet-auditor/audit";
import { applicationsAudit, refusedFinding, stuckFinding } from "@fleet-auditor/kubeedge-audit";
import { describe, expect, it } from "vitest";

// Inhibition in the diff, with the applications audit's shipped rule (a refusing node holds back
// its own stuck Applications): held back like a silence (told on no channel, done for the
// commit, untold until released), never resolved by it.

const T0 = new Date("2026-11-01T00:00:00Z");
const minutes = (m: number): Date => new Date(T0.getTime() + m * 60_000);

const stuck = (id: string, node: string, status = "InApplying"): Finding =>
  stuckFinding({
    id,
    node,
    key: `/core/v1/services/ns/${id}`,
    verb: "list",
    resource: "services",
    status,
    since: T0.toISOString(),
    firstSeenAt: T0.toISOString(),
  });
const refusing = (node: string): Finding =>
  refusedFinding({
    node,
    reason: "Forbidden",
    code: 403,
    count: 6,
    requests: ["list services"],
    keys: ["/core/v1/services/ns/null"],
    firstAt: T0.toISOString(),
    lastAt: T0.toISOString(),
  });

const REFUSING = refusing("edge-1");
const noSuchTold = new Set<number>();

/**
 * One run over `snapshot`; the messages told every transition that is not held back, as the
 * renderers do (a held-back one is named in none of them).
 */
function run(
  snapshot: Map<string, SnapshotEntry>,
  findings: Finding[],
  at: Date,
  opts: Partial<Parameters<typeof diffSnapshot>[0]> = {},
): { result: DiffResult; next: Map<string, SnapshotEntry> } {
  const result = diffSnapshot({
    audit: applicationsAudit.name,
    problemKey: applicationsAudit.presenter.problemKey,
    previous: snapshot,
    findings,
    complete: true,
    now: at,
    policy: DEFAULT_POLICY,
    inhibitRules: applicationsAudit.inhibitRules ?? [],
    ...opts,
  });
  const told = new Set(result.transitions.flatMap((t, i) => (t.silencedBy || t.inhibitedBy ? [] : [i])));
  return { result, next: apply(snapshot, committable(result, { told, refused: noSuchTold })) };
}

function apply(snapshot: Map<string, SnapshotEntry>, changes: readonly SnapshotChange[]) {
  const next = new Map(snapshot);
  for (const c of changes) {
    if (c.op === "put") next.set(c.entry.key, c.entry);
    else next.delete(c.key);
  }
  return next;
}
const told = (r: DiffResult): string[] =>
  r.transitions.filter((t) => !t.inhibitedBy && !t.silencedBy).map((t) => `${t.kind} ${t.key}`);

describe("inhibition in the diff", () => {
  it("holds back a refusing node's stuck Applications, marked with the node's finding, and commits them untold", () => {
    const first = run(new Map(), [REFUSING, stuck("a", "edge-1"), stuck("b", "edge-2")], T0);
    expect(told(first.result).sort()).toEqual(["firing app:b", `firing ${REFUSING.key}`]);
    expect(first.result.transitions.find((t) => t.key === "app:a")).toMatchObject({
      kind: "firing",
      inhibitedBy: REFUSING.key,
    });
    // Committed as done, though no message named it, and remembered as never told.
    expect(first.next.get("app:a")).toMatchObject({ phase: "firing", notifiedAt: null });
  });

  it("stays quiet and writes nothing while the node still refuses", () => {
    const { next } = run(new Map(), [REFUSING, stuck("a", "edge-1")], T0);
    const steady = run(next, [REFUSING, stuck("a", "edge-1")], minutes(5));
    expect(steady.result.transitions).toEqual([]);
    expect(steady.result.changes).toEqual([]);
    // Past the repeat interval, the node is reminded of; its Application still is not told.
    const due = run(next, [REFUSING, stuck("a", "edge-1")], minutes(24 * 60));
    expect(told(due.result)).toEqual([`reminder ${REFUSING.key}`]);
    expect(due.result.transitions.some((t) => t.key === "app:a")).toBe(false);
  });

  it("tells a held-back Application as firing once the node stops refusing while it is still stuck", () => {
    const { next } = run(new Map(), [REFUSING, stuck("a", "edge-1")], T0);
    const released = run(next, [stuck("a", "edge-1")], minutes(15));
    expect(told(released.result).sort()).toEqual(["firing app:a", `resolved ${REFUSING.key}`]);
    expect(released.next.get("app:a")?.notifiedAt).toBe(minutes(15).toISOString());
    expect(run(released.next, [stuck("a", "edge-1")], minutes(20)).result.transitions).toEqual([]);
  });

  it("forgets a held-back Application that is no longer stuck without a word", () => {
    const { next } = run(new Map(), [REFUSING, stuck("a", "edge-1")], T0);
    const answered = run(next, [REFUSING], minutes(10));
    expect(answered.result.transitions).toEqual([]);
    expect(answered.next.has("app:a")).toBe(false);
  });

  it("never resolves an Application by inhibition: told before the node refused, it stays firing and its end is told", () => {
    const { next } = run(new Map(), [stuck("a", "edge-1")], T0);
    const refused = run(next, [REFUSING, stuck("a", "edge-1")], minutes(10));
    expect(told(refused.result)).toEqual([`firing ${REFUSING.key}`]);
    expect(refused.result.transitions.some((t) => t.key === "app:a")).toBe(false);
    expect(refused.next.get("app:a")).toMatchObject({ phase: "firing", notifiedAt: T0.toISOString() });
    // It is answered while the node still refuses: its end is news, told.
    const answered = run(refused.next, [REFUSING], minutes(20));
    expect(told(answered.result)).toEqual(["resolved app:a"]);
  });

  it("holds back a change of an Application already told, and tells nothing again on release", () => {
    const { next } = run(new Map(), [stuck("a", "edge-1")], T0);
    const refused = run(next, [REFUSING, stuck("a", "edge-1")], minutes(10));
    const moved = stuck("a", "edge-1", "PreApplying");
    const changed = run(refused.next, [REFUSING, moved], minutes(15));
    expect(changed.result.transitions).toMatchObject([
      { kind: "changed", key: "app:a", inhibitedBy: REFUSING.key },
    ]);
    expect(changed.next.get("app:a")).toMatchObject({ finding: moved, notifiedAt: T0.toISOString() });
    const released = run(changed.next, [moved], minutes(20));
    expect(told(released.result)).toEqual([`resolved ${REFUSING.key}`]);
  });

  it("lets only a firing node inhibit: a refusal still pending holds nothing back", () => {
    const policy = { ...DEFAULT_POLICY, fireAfterRuns: 2 };
    // The Application was flagged a run before the refusal: it fires while the refusal is pending.
    const { next } = run(new Map(), [stuck("a", "edge-1")], T0, { policy });
    const second = run(next, [REFUSING, stuck("a", "edge-1")], minutes(5), { policy });
    expect(told(second.result)).toEqual(["firing app:a"]);
  });

  it("lets a silenced node still inhibit, and marks a finding both would hold back as silenced", () => {
    const silence = (match: Silence["match"]): Silence => ({
      id: "maint",
      match,
      startsAt: T0.toISOString(),
      endsAt: minutes(600).toISOString(),
      createdBy: "sre",
      comment: "node under maintenance",
    });
    const nodeSilenced = run(new Map(), [REFUSING, stuck("a", "edge-1")], T0, {
      silences: [silence([{ name: "state", op: "=", value: "refused" }])],
    });
    expect(nodeSilenced.result.transitions.map((t) => [t.key, t.silencedBy, t.inhibitedBy])).toEqual([
      [REFUSING.key, "maint", undefined],
      ["app:a", undefined, REFUSING.key],
    ]);
    const both = run(new Map(), [REFUSING, stuck("a", "edge-1")], T0, {
      silences: [silence([{ name: "node", op: "=", value: "edge-1" }])],
    });
    expect(both.result.transitions.find((t) => t.key === "app:a")).toMatchObject({ silencedBy: "maint" });
    expect(both.result.transitions.find((t) => t.key === "app:a")?.inhibitedBy).toBeUndefined();
  });

  it("holds back nothing without rules", () => {
    const r = run(new Map(), [REFUSING, stuck("a", "edge-1")], T0, { inhibitRules: [] });
    expect(told(r.result).sort()).toEqual(["firing app:a", `firing ${REFUSING.key}`]);
  });
});
