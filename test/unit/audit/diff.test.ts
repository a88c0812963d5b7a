import {
  committable,
  DEFAULT_POLICY,
  type DiffResult,
  diffSnapshot,
  type Finding,
  type SnapshotChange,
  type SnapshotEntry,
} from "@fleet-auditor/audit";
import { kebPresenter } from "@fleet-auditor/keb-audits";
import { stuckFinding } from "@fleet-auditor/kubeedge-audit";
import { describe, expect, it } from "vitest";
import { finding } from "../../helpers/findings.ts";

const T0 = new Date("2026-11-01T00:00:00Z");
const hours = (h: number): Date => new Date(T0.getTime() + h * 3_600_000);

/** Applies committed changes to a snapshot, as the store would. */
function apply(
  snapshot: Map<string, SnapshotEntry>,
  changes: readonly SnapshotChange[],
): Map<string, SnapshotEntry> {
  const next = new Map(snapshot);
  for (const c of changes) {
    if (c.op === "put") next.set(c.entry.key, c.entry);
    else next.delete(c.key);
  }
  return next;
}
const all = (r: DiffResult): Set<number> => new Set(r.transitions.map((_, i) => i));

function run(
  snapshot: Map<string, SnapshotEntry>,
  findings: Finding[],
  at: Date,
  opts: Partial<Parameters<typeof diffSnapshot>[0]> = {},
): { result: DiffResult; next: Map<string, SnapshotEntry> } {
  const result = diffSnapshot({
    audit: "failing",
    problemKey: kebPresenter.problemKey,
    previous: snapshot,
    findings,
    complete: true,
    now: at,
    policy: DEFAULT_POLICY,
    ...opts,
  });
  return { result, next: apply(snapshot, committable(result, { told: all(result), refused: new Set() })) };
}

describe("diffSnapshot", () => {
  it("fires a newly flagged runtime once, then stays quiet while nothing changes", () => {
    const first = run(new Map(), [finding("a")], T0);
    expect(first.result.transitions.map((t) => [t.kind, t.key, t.previousState])).toEqual([
      ["firing", "a", null],
    ]);
    const second = run(first.next, [finding("a")], hours(1));
    expect(second.result.transitions).toEqual([]);
  });

  it("writes no snapshot item in a run where nothing changed", () => {
    const { next } = run(new Map(), [finding("a"), finding("b", "error", "warning")], T0);
    const steady = run(next, [finding("a"), finding("b", "error", "warning")], hours(2));
    expect(steady.result.changes).toEqual([]);
  });

  it("reports a changed state or failing operation as `changed`", () => {
    const { next } = run(new Map(), [finding("a", "error", "warning")], T0);
    const stateChange = run(next, [finding("a", "failed", "critical")], hours(1));
    expect(stateChange.result.transitions).toMatchObject([
      { kind: "changed", state: "failed", previousState: "error" },
    ]);
    const opChange = run(stateChange.next, [finding("a", "failed", "critical", "op-2")], hours(2));
    expect(opChange.result.transitions).toMatchObject([
      { kind: "changed", state: "failed", previousState: "failed" },
    ]);
  });

  it("resolves a runtime that is no longer flagged and forgets it", () => {
    const { next } = run(new Map(), [finding("a"), finding("b")], T0);
    const later = run(next, [finding("b")], hours(1));
    expect(later.result.transitions).toMatchObject([{ kind: "resolved", key: "a", previousState: "failed" }]);
    expect([...later.next.keys()]).toEqual(["b"]);
  });

  it("never resolves or deletes anything after an incomplete scan", () => {
    const { next } = run(new Map(), [finding("a"), finding("b")], T0);
    const incomplete = run(next, [], hours(1), { complete: false });
    expect(incomplete.result.transitions).toEqual([]);
    expect(incomplete.result.changes).toEqual([]);
    expect([...incomplete.next.keys()].sort()).toEqual(["a", "b"]);
  });

  it("still fires new findings during an incomplete scan", () => {
    const { next } = run(new Map(), [finding("a")], T0);
    const incomplete = run(next, [finding("c")], hours(1), { complete: false });
    expect(incomplete.result.transitions.map((t) => [t.kind, t.key])).toEqual([["firing", "c"]]);
  });

  it("sends a reminder after the repeat interval, and not before", () => {
    const { next } = run(new Map(), [finding("a")], T0);
    expect(run(next, [finding("a")], hours(23)).result.transitions).toEqual([]);
    const due = run(next, [finding("a")], hours(24));
    expect(due.result.transitions).toMatchObject([{ kind: "reminder", key: "a" }]);
    expect(run(due.next, [finding("a")], hours(30)).result.transitions).toEqual([]);
  });

  it("does not mark a transition notified when its publish failed, so the next run sends it again", () => {
    const first = diffSnapshot({
      audit: "failing",
      problemKey: kebPresenter.problemKey,
      previous: new Map(),
      findings: [finding("a")],
      complete: true,
      now: T0,
      policy: DEFAULT_POLICY,
    });
    const nothingPublished = apply(new Map(), committable(first, { told: new Set(), refused: new Set() }));
    expect(nothingPublished.size).toBe(0);
    const retry = run(nothingPublished, [finding("a")], hours(1));
    expect(retry.result.transitions).toMatchObject([{ kind: "firing", key: "a" }]);
  });

  it("sends a failed `resolved` again on the next run", () => {
    const { next } = run(new Map(), [finding("a")], T0);
    const resolve = diffSnapshot({
      audit: "failing",
      problemKey: kebPresenter.problemKey,
      previous: next,
      findings: [],
      complete: true,
      now: hours(1),
      policy: DEFAULT_POLICY,
    });
    const kept = apply(next, committable(resolve, { told: new Set(), refused: new Set() }));
    expect(kept.has("a")).toBe(true);
    expect(run(kept, [], hours(2)).result.transitions).toMatchObject([{ kind: "resolved", key: "a" }]);
  });

  it("fires only after N consecutive flagged runs, and resolves only after N clear runs", () => {
    const policy = { ...DEFAULT_POLICY, fireAfterRuns: 3, resolveAfterRuns: 2 };
    let snap = new Map<string, SnapshotEntry>();
    const kinds: string[][] = [];
    for (const [h, flagged] of [
      [0, true],
      [1, true],
      [2, true],
      [3, false],
      [4, true],
      [5, false],
      [6, false],
    ] as const) {
      const r = run(snap, flagged ? [finding("a")] : [], hours(h), { policy });
      kinds.push(r.result.transitions.map((t) => t.kind));
      snap = r.next;
    }
    expect(kinds).toEqual([[], [], ["firing"], [], [], [], ["resolved"]]);
  });

  it("forgets a pending runtime that clears before firing, without notifying", () => {
    const policy = { ...DEFAULT_POLICY, fireAfterRuns: 2 };
    const { next } = run(new Map(), [finding("a")], T0, { policy });
    const cleared = run(next, [], hours(1), { policy });
    expect(cleared.result.transitions).toEqual([]);
    expect(cleared.next.size).toBe(0);
  });

  it("keeps silenced runtimes quiet and fires them when the silence has ended", () => {
    const silence = {
      id: "s1",
      match: [{ name: "account", op: "=" as const, value: "ga-1" }],
      startsAt: T0.toISOString(),
      endsAt: hours(5).toISOString(),
      createdBy: "sre",
      comment: "maintenance",
    };
    const first = run(new Map(), [finding("a")], T0, { silences: [silence] });
    expect(first.result.transitions).toMatchObject([{ kind: "firing", silencedBy: "s1" }]);
    expect(first.next.get("a")?.notifiedAt).toBeNull();
    const during = run(first.next, [finding("a")], hours(1), { silences: [silence] });
    expect(during.result.transitions).toEqual([]);
    expect(during.result.changes).toEqual([]);
    const after = run(first.next, [finding("a")], hours(6), { silences: [silence] });
    expect(after.result.transitions).toMatchObject([{ kind: "firing", key: "a" }]);
    expect(after.result.transitions[0]?.silencedBy).toBeUndefined();
  });

  it("ties every notifying write to its transition, and writes only what changed", () => {
    const { next } = run(new Map(), [finding("a"), finding("b")], T0);
    const r = diffSnapshot({
      audit: "failing",
      problemKey: kebPresenter.problemKey,
      previous: next,
      findings: [finding("a", "error", "warning"), finding("c")],
      complete: true,
      now: hours(1),
      policy: DEFAULT_POLICY,
    });
    expect(r.transitions.map((t) => `${t.kind}:${t.key}`).sort()).toEqual([
      "changed:a",
      "firing:c",
      "resolved:b",
    ]);
    expect(r.changes.every((c) => c.transition !== undefined)).toBe(true);
    expect(r.changes).toHaveLength(3);
  });
});

describe("an edge finding's start", () => {
  it("begins when the edge says it did, never in the future, and keeps that start", () => {
    const stuck = (since: Date) =>
      stuckFinding({
        id: "app-1",
        node: "edge-1",
        key: "/core/v1/services/null/null",
        verb: "list",
        resource: "services",
        status: "InApplying",
        since: since.toISOString(),
        firstSeenAt: since.toISOString(),
      });
    const first = run(new Map(), [stuck(hours(-1))], hours(0));
    expect(first.result.transitions[0]?.since).toBe(hours(-1).toISOString());
    // A later run keeps the incident's start.
    const again = run(first.next, [stuck(hours(-1))], hours(30));
    expect(again.result.transitions[0]).toMatchObject({ kind: "reminder", since: hours(-1).toISOString() });
    // A sender's clock ahead of ours: the incident starts when we saw it.
    expect(run(new Map(), [stuck(hours(2))], hours(0)).result.transitions[0]?.since).toBe(
      hours(0).toISOString(),
    );
  });
});
