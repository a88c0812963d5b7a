import { TransactionCanceledException, TransactionConflictException } from "@aws-sdk/client-dynamodb";
import {
  BatchWriteCommand,
  DynamoDBDocumentClient,
  PutCommand,
  TransactWriteCommand,
} from "@aws-sdk/lib-dynamodb";
import type { RunSummary, SnapshotChange, SnapshotEntry } from "@fleet-auditor/audit";
import { DynamoAuditStore, LeaseLostError, UnprocessedItemsError } from "@fleet-auditor/store";
import { mockClient } from "aws-sdk-client-mock";
import { describe, expect, it } from "vitest";
import { countRequests } from "../../helpers/aws-requests.ts";
import { useDynamo } from "../../helpers/dynamo.ts";
import { finding } from "../../helpers/findings.ts";
import { runSummary } from "../../helpers/summaries.ts";

/** DynamoDB Local (the `dynamodb-local` project) takes transactions; dynalite does not. */
const LOCAL = process.env.FLEET_AUDITOR_DYNAMO === "local";

const env = useDynamo();
const store = (): DynamoAuditStore => new DynamoAuditStore({ client: env.db.client, tableName: "audit" });
const entry = (id: string, version = 1): SnapshotEntry => ({
  key: id,
  phase: "firing",
  finding: finding(id),
  flaggedRuns: 1,
  clearRuns: 0,
  firstSeenAt: "2026-11-01T00:00:00.000Z",
  notifiedAt: "2026-11-01T00:00:00.000Z",
  version,
});
const T0 = new Date("2026-11-01T00:00:00Z");
const T1 = new Date("2026-11-01T00:05:00Z");
/** Takes the audit's lease for `owner` and returns the fence to commit with. */
async function fenced(s: DynamoAuditStore, audit: string, owner = "run-1") {
  expect(await s.acquireLease(audit, owner, T0, T1)).toBe(true);
  return { owner, until: T1 };
}
const summary = (audit: string): RunSummary => runSummary({ audit });
/** A ledger record of `audit`'s run at the first scheduled hour. */
const ledgerRecord = (audit: string) => ({
  audit,
  runKey: "sched:2026-11-01T00:00:00Z",
  summary: summary(audit),
  expiresAt: 1_900_000_000,
});

describe("DynamoAuditStore on a real DynamoDB API (dynalite, or DynamoDB Local in its project)", () => {
  it("writes one item per runtime and reads the snapshot back across query pages", async () => {
    const s = store();
    // 1,200 items of ~1 KB exceed one 1 MB query page.
    const puts: SnapshotChange[] = Array.from({ length: 1200 }, (_, i) => ({
      op: "put",
      entry: entry(`big-${i}`),
    }));
    await s.commit("paged", puts, await fenced(s, "paged"));
    const snap = await s.loadSnapshot("paged");
    expect(snap.size).toBe(1200);
    expect(snap.get("big-7")).toEqual(entry("big-7"));
    expect((await s.loadSnapshot("other")).size).toBe(0);
  });

  it("commits only while the run holds the audit's lease, and then in batches", async () => {
    const s = store();
    const fence = await fenced(s, "fence", "run-a");
    expect(await s.commit("fence", [{ op: "put", entry: entry("a"), transition: 0 }], fence)).toEqual({
      written: 1,
      deleted: 0,
    });
    // run-a outlived its lease; run-b took over.
    expect(
      await s.acquireLease(
        "fence",
        "run-b",
        new Date("2026-11-01T00:06:00Z"),
        new Date("2026-11-01T00:11:00Z"),
      ),
    ).toBe(true);
    const late = await s
      .commit("fence", [{ op: "delete", key: "a", transition: 0 }], fence)
      .catch((e: unknown) => e);
    expect(late).toBeInstanceOf(LeaseLostError);
    expect(late).toMatchObject({ code: "STORE_LEASE_LOST" });
    expect((await s.loadSnapshot("fence")).has("a")).toBe(true);
    expect(await s.commit("fence", [], fence)).toEqual({ written: 0, deleted: 0 });
  });

  it("records a run once per key and lists recent runs newest first", async () => {
    const s = store();
    const rec = ledgerRecord("ledger");
    expect(await s.recordRun(rec)).toBe(true);
    expect(await s.recordRun(rec)).toBe(false);
    expect(await s.findRun("ledger", rec.runKey)).toEqual(rec);
    expect(await s.findRun("ledger", "sched:nope")).toBeUndefined();
    await s.recordRun({ ...rec, runKey: "sched:2026-11-01T01:00:00Z" });
    expect((await s.recentRuns("ledger", 5)).map((r) => r.runKey)).toEqual([
      "sched:2026-11-01T01:00:00Z",
      rec.runKey,
    ]);
  });

  it("finishes a run (its record and the lease's release) in one request where the server takes transactions, two in order where not", async () => {
    const s = store();
    const calls = countRequests(env.db.client);
    const rec = ledgerRecord("finish");
    await fenced(s, "finish", "run-a");
    calls.clear();
    expect(await s.finishRun(rec, "run-a")).toBe(true);
    expect(await s.findRun("finish", rec.runKey)).toEqual(rec);
    expect(await s.describeLease("finish")).toBeUndefined();
    const writes = [...calls.keys()].filter((c) => /Put|Delete|Transact/.test(c));
    expect(writes).toEqual(
      LOCAL
        ? ["TransactWriteItemsCommand"]
        : ["TransactWriteItemsCommand", "PutItemCommand", "DeleteItemCommand"],
    );
    // Known by now, to a new store on the same client too: a server without them is not asked again.
    await fenced(s, "finish", "run-b");
    calls.clear();
    expect(await store().finishRun({ ...rec, runKey: "sched:2026-11-01T01:00:00Z" }, "run-b")).toBe(true);
    expect([...calls.keys()]).toEqual(
      LOCAL ? ["TransactWriteItemsCommand"] : ["PutItemCommand", "DeleteItemCommand"],
    );
  });

  it("finishing a run whose key is recorded releases its lease; finishing one whose lease was taken over records it and leaves that lease alone", async () => {
    const s = store();
    const rec = ledgerRecord("finish2");
    expect(await s.recordRun(rec)).toBe(true);
    await fenced(s, "finish2", "run-a");
    expect(await s.finishRun({ ...rec, summary: summary("finish2-late") }, "run-a")).toBe(false);
    expect(await s.describeLease("finish2")).toBeUndefined();
    expect((await s.findRun("finish2", rec.runKey))?.summary).toEqual(rec.summary);
    await fenced(s, "finish2", "thief");
    const next = { ...rec, runKey: "sched:2026-11-01T01:00:00Z" };
    expect(await s.finishRun(next, "run-a")).toBe(true);
    expect(await s.findRun("finish2", next.runKey)).toEqual(next);
    expect((await s.describeLease("finish2"))?.owner).toBe("thief");
  });

  it("finishing a run whose record cannot be written releases nothing: the lease stays until it expires, and no record is half there", async () => {
    const s = store();
    await fenced(s, "finish3", "run-a");
    // Over DynamoDB's 400 KB item limit: refused by both servers.
    const huge = { ...summary("finish3"), incompleteReason: "x".repeat(420_000) };
    const rec = { ...ledgerRecord("finish3"), summary: huge };
    await expect(s.finishRun(rec, "run-a")).rejects.toThrow();
    expect(await s.findRun("finish3", rec.runKey)).toBeUndefined();
    expect((await s.describeLease("finish3"))?.owner).toBe("run-a");
  });

  it("a transaction canceled for a conflict or throttling (injected) is not a failed run: the record and the release go as two writes; a lease taken while a transaction holds it is refused, not an error", async () => {
    const real = env.db.client;
    const faults: Array<{ on: new (...a: never[]) => unknown; err: Error }> = [];
    const faulty = {
      send: (command: unknown) => {
        const i = faults.findIndex((f) => command instanceof f.on);
        if (i >= 0) {
          const [fault] = faults.splice(i, 1);
          return Promise.reject(fault?.err);
        }
        return real.send(command as never);
      },
    } as unknown as DynamoDBDocumentClient;
    const s = new DynamoAuditStore({ client: faulty, tableName: "audit" });
    const rec = ledgerRecord("finish4");
    await fenced(s, "finish4", "run-a");
    for (const code of ["TransactionConflict", "ThrottlingError"]) {
      faults.push({
        on: TransactWriteCommand,
        err: new TransactionCanceledException({
          message: `Transaction cancelled, please refer cancellation reasons for specific reasons [None, ${code}]`,
          $metadata: {},
          CancellationReasons: [{ Code: "None" }, { Code: code }],
        }),
      });
      const key = `sched:${code}`;
      expect(await s.finishRun({ ...rec, runKey: key }, "run-a"), code).toBe(true);
      expect((await s.findRun("finish4", key))?.runKey, code).toBe(key);
      expect(await s.describeLease("finish4"), code).toBeUndefined();
      await fenced(s, "finish4", "run-a");
    }
    // Another run asks for the lease while the holder's record-and-release is under way.
    faults.push({
      on: PutCommand,
      err: new TransactionConflictException({
        message: "Transaction is ongoing for the item",
        $metadata: {},
      }),
    });
    expect(await s.acquireLease("finish4", "run-b", T0, T1)).toBe(false);
    expect((await s.describeLease("finish4"))?.owner).toBe("run-a");
  });

  it("holds a lease against another owner until it expires or is released", async () => {
    const s = store();
    const t0 = new Date("2026-11-01T00:00:00Z");
    const t1 = new Date("2026-11-01T00:05:00Z");
    expect(await s.acquireLease("lease", "run-a", t0, t1)).toBe(true);
    expect(await s.acquireLease("lease", "run-b", t0, t1)).toBe(false);
    expect(
      await s.acquireLease(
        "lease",
        "run-b",
        new Date("2026-11-01T00:06:00Z"),
        new Date("2026-11-01T00:10:00Z"),
      ),
    ).toBe(true);
    await s.releaseLease("lease", "run-a"); // not the owner any more: no effect
    expect(
      await s.acquireLease(
        "lease",
        "run-c",
        new Date("2026-11-01T00:07:00Z"),
        new Date("2026-11-01T00:12:00Z"),
      ),
    ).toBe(false);
    await s.releaseLease("lease", "run-b");
    expect(
      await s.acquireLease(
        "lease",
        "run-c",
        new Date("2026-11-01T00:07:00Z"),
        new Date("2026-11-01T00:12:00Z"),
      ),
    ).toBe(true);
  });

  it("retries unprocessed batch items (injected: throttling dynalite cannot produce)", async () => {
    const client = DynamoDBDocumentClient.from(env.db.client);
    const mock = mockClient(client);
    let calls = 0;
    mock.on(BatchWriteCommand).callsFake(async (input: { RequestItems: Record<string, unknown[]> }) => {
      calls++;
      const items = input.RequestItems.audit ?? [];
      // Each call processes only the first item and hands the rest back.
      for (const req of items.slice(0, 1))
        await env.db.client.send(
          new PutCommand({
            TableName: "audit",
            Item: (req as { PutRequest: { Item: Record<string, unknown> } }).PutRequest.Item,
          }),
        );
      return { UnprocessedItems: items.length > 1 ? { audit: items.slice(1) } : {} };
    });
    const s = new DynamoAuditStore({ client, tableName: "audit" });
    // The mock answers everything else (the lease renewal) with success.
    await s.commit(
      "throttled",
      [0, 1, 2].map((i) => ({ op: "put" as const, entry: entry(`t-${i}`) })),
      { owner: "r", until: T1 },
    );
    mock.restore();
    expect(calls).toBe(3);
    expect((await store().loadSnapshot("throttled")).size).toBe(3);
  });

  it("gives up with STORE_UNPROCESSED when items stay unprocessed", async () => {
    const client = DynamoDBDocumentClient.from(env.db.client);
    const mock = mockClient(client);
    mock.on(BatchWriteCommand).callsFake(async (input: { RequestItems: Record<string, unknown[]> }) => ({
      UnprocessedItems: input.RequestItems,
    }));
    const s = new DynamoAuditStore({ client, tableName: "audit" });
    const err = await s
      .commit("stuck", [{ op: "put", entry: entry("x") }], { owner: "r", until: T1 })
      .catch((e: unknown) => e);
    mock.restore();
    expect(err).toBeInstanceOf(UnprocessedItemsError);
    expect(err).toMatchObject({ code: "STORE_UNPROCESSED", remaining: 1 });
  });
});
