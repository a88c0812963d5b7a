import type { AuditStateStore, RunRecord, SnapshotEntry } from "@fleet-auditor/audit";
import { DynamoAuditStore, LeaseLostError } from "@fleet-auditor/store";
import { describe, expect, it } from "vitest";
import { useDynamo } from "../../helpers/dynamo.ts";
import { finding } from "../../helpers/findings.ts";
import { MemoryAuditStore } from "../../helpers/memory-ports.ts";
import { runSummary } from "../../helpers/summaries.ts";

// The in-memory store the runAudit unit tests use must keep the DynamoDB store's rules, or those
// tests prove the logic against a friendlier world. Each rule here runs on both.

const env = useDynamo(["contract"]);
let auditNo = 0;

const T0 = new Date("2026-11-01T00:00:00Z");
const T1 = new Date("2026-11-01T00:05:00Z");
const T2 = new Date("2026-11-01T00:10:00Z");
const entry = (id: string): SnapshotEntry => ({
  key: id,
  phase: "firing",
  finding: finding(id),
  flaggedRuns: 1,
  clearRuns: 0,
  firstSeenAt: T0.toISOString(),
  notifiedAt: T0.toISOString(),
  version: 1,
});
const record = (audit: string, runKey: string): RunRecord => ({
  audit,
  runKey,
  expiresAt: 2_000_000_000,
  summary: runSummary({ audit, scheduledTime: null, startedAt: T0.toISOString() }),
});

describe.each([
  ["MemoryAuditStore", (): AuditStateStore => new MemoryAuditStore()],
  [
    "DynamoAuditStore",
    (): AuditStateStore => new DynamoAuditStore({ client: env.db.client, tableName: "contract" }),
  ],
])("the audit store contract: %s", (_name, make) => {
  const audit = () => `contract-${++auditNo}`;

  it("leases to one owner until it expires; the owner may take it again", async () => {
    const s = make();
    const a = audit();
    expect(await s.acquireLease(a, "one", T0, T1)).toBe(true);
    expect(await s.acquireLease(a, "two", T0, T1)).toBe(false);
    expect(await s.acquireLease(a, "one", T0, T2)).toBe(true);
    expect(await s.acquireLease(a, "two", new Date(T2.getTime() + 1), T2)).toBe(true);
  });

  it("releases only the owner's lease", async () => {
    const s = make();
    const a = audit();
    await s.acquireLease(a, "one", T0, T2);
    await s.releaseLease(a, "two");
    expect(await s.acquireLease(a, "two", T1, T2)).toBe(false);
    await s.releaseLease(a, "one");
    expect(await s.acquireLease(a, "two", T1, T2)).toBe(true);
  });

  it("releases for an operator only the lease it showed, never one taken over or extended since", async () => {
    const s = make();
    const a = audit();
    expect(await s.describeLease(a)).toBeUndefined();
    await s.acquireLease(a, "killed", T0, T1);
    const shown = await s.describeLease(a);
    expect(shown).toEqual({ owner: "killed", expiresAtMs: T1.getTime() });
    // Between showing and the answer, the next run takes the expired lease over.
    expect(await s.acquireLease(a, "next", new Date(T1.getTime() + 1), T2)).toBe(true);
    expect(await s.releaseShownLease(a, shown as NonNullable<typeof shown>)).toBe(false);
    const taken = await s.describeLease(a);
    expect(taken).toEqual({ owner: "next", expiresAtMs: T2.getTime() });
    // The same owner extending its lease is a run that is alive: that lease changed too.
    expect(await s.acquireLease(a, "next", T1, new Date(T2.getTime() + 1))).toBe(true);
    expect(await s.releaseShownLease(a, taken as NonNullable<typeof taken>)).toBe(false);
    expect((await s.describeLease(a))?.owner).toBe("next");
    const current = (await s.describeLease(a)) as NonNullable<typeof shown>;
    expect(await s.releaseShownLease(a, current)).toBe(true);
    expect(await s.describeLease(a)).toBeUndefined();
    expect(await s.releaseShownLease(a, current)).toBe(false);
  });

  it("notes a run publishing only while it holds the lease, until the note is cleared", async () => {
    const s = make();
    const a = audit();
    expect(await s.unfinishedPublishing(a)).toBeUndefined();
    await s.acquireLease(a, "one", T0, T1);
    await expect(s.beginPublishing(a, { owner: "two", until: T2 })).rejects.toBeInstanceOf(LeaseLostError);
    expect(await s.unfinishedPublishing(a)).toBeUndefined();
    await s.beginPublishing(a, { owner: "one", until: T2 });
    expect(await s.unfinishedPublishing(a)).toBe("one");
    // Beginning extended the lease to T2.
    expect(await s.acquireLease(a, "two", new Date(T1.getTime() + 1), T2)).toBe(false);
    // The note outlives the lease (a killed run), until a later run's commit is done.
    await s.releaseLease(a, "one");
    expect(await s.unfinishedPublishing(a)).toBe("one");
    await s.endPublishing(a);
    expect(await s.unfinishedPublishing(a)).toBeUndefined();
  });

  it("commits only while the run holds the lease, and writes nothing otherwise", async () => {
    const s = make();
    const a = audit();
    await s.acquireLease(a, "one", T0, T1);
    expect(await s.commit(a, [{ op: "put", entry: entry("x") }], { owner: "one", until: T2 })).toEqual({
      written: 1,
      deleted: 0,
    });
    // The commit extended the lease to T2: another run still cannot take it at T1.
    expect(await s.acquireLease(a, "two", new Date(T1.getTime() + 1), T2)).toBe(false);
    await expect(
      s.commit(a, [{ op: "put", entry: entry("y") }], { owner: "two", until: T2 }),
    ).rejects.toBeInstanceOf(LeaseLostError);
    expect([...(await s.loadSnapshot(a)).keys()]).toEqual(["x"]);
    await s.commit(a, [{ op: "delete", key: "x" }], { owner: "one", until: T2 });
    expect((await s.loadSnapshot(a)).size).toBe(0);
  });

  it("keeps every field of an entry, its incidents on every route, a roll-up's thread and its reminders on routes too, as it was committed", async () => {
    const s = make();
    const a = audit();
    await s.acquireLease(a, "one", T0, T1);
    const kept: SnapshotEntry = {
      ...entry("x"),
      incident: {
        key: "inc-1",
        openedAt: T0.toISOString(),
        values: { state: "failed", region: "eu-1" },
        thread: "inc-roll-up",
      },
      routes: { pager: { key: "inc-2", openedAt: T0.toISOString(), values: { audit: "failing" } } },
      remindedOn: { oncall: T1.toISOString() },
    };
    await s.commit(a, [{ op: "put", entry: kept }], { owner: "one", until: T2 });
    expect((await s.loadSnapshot(a)).get("x")).toEqual(kept);
  });

  it("commits nothing, without a fence, when there is nothing to commit", async () => {
    const s = make();
    expect(await s.commit(audit(), [], { owner: "nobody", until: T1 })).toEqual({ written: 0, deleted: 0 });
  });

  it("records a run key once and finds it", async () => {
    const s = make();
    const a = audit();
    expect(await s.recordRun(record(a, "sched:1"))).toBe(true);
    expect(await s.recordRun(record(a, "sched:1"))).toBe(false);
    expect((await s.findRun(a, "sched:1"))?.summary.runId).toBe("r1");
    expect(await s.findRun(a, "sched:2")).toBeUndefined();
  });
});
