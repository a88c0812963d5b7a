import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { SnapshotChange, SnapshotEntry } from "@fleet-auditor/audit";
import { DynamoAuditStore, documentClient } from "@fleet-auditor/store";
import { afterAll, describe, expect, it } from "vitest";
import { countRequests } from "../../helpers/aws-requests.ts";
import { useDynamo } from "../../helpers/dynamo.ts";
import { finding } from "../../helpers/findings.ts";

// A store kept between runs (a warm Lambda's) reads the whole snapshot only when it changed since
// it last read or wrote it; whatever happens around it (another store's commit, a commit that
// broke off, a run that outlived its lease, a caller that changes what it got), it never starts a
// run from anything but what the table holds.

const env = useDynamo();
const T0 = new Date("2026-11-01T00:00:00Z");
const LATER = new Date("2026-11-01T01:00:00Z");
const UNTIL = new Date("2026-11-02T00:00:00Z");
const entry = (id: string, state = "failed"): SnapshotEntry => ({
  key: id,
  phase: "firing",
  finding: finding(id, state),
  flaggedRuns: 1,
  clearRuns: 0,
  firstSeenAt: "2026-11-01T00:00:00.000Z",
  notifiedAt: null,
  version: 1,
});
const puts = (ids: string[], state?: string): SnapshotChange[] =>
  ids.map((id) => ({ op: "put", entry: entry(id, state) }));
const ids = (n: number, tag: string): string[] => Array.from({ length: n }, (_, i) => `${tag}-${i}`);

const clients: DynamoDBClient[] = [];
afterAll(() => {
  for (const c of clients) c.destroy();
});

/**
 * A store as another process would have it: its own SDK client (a document client shares its
 * client's middleware), with the requests it sends counted by command.
 */
async function counted(): Promise<{
  store: DynamoAuditStore;
  client: DynamoDBDocumentClient;
  calls: Map<string, number>;
}> {
  const shared = env.db.client.config;
  const raw = new DynamoDBClient({
    endpoint: env.db.endpoint,
    region: await shared.region(),
    credentials: await shared.credentials(),
  });
  clients.push(raw);
  const client = documentClient(raw);
  return {
    store: new DynamoAuditStore({ client, tableName: "audit" }),
    client,
    calls: countRequests(client),
  };
}
/** What the table holds, read by a store that kept nothing. */
const inTable = async (audit: string) => (await counted()).store.loadSnapshot(audit);
/** Commits as the holder of the audit's lease, taken at `at`. */
async function commitAs(
  store: DynamoAuditStore,
  audit: string,
  owner: string,
  changes: SnapshotChange[],
  at = T0,
): Promise<void> {
  expect(await store.acquireLease(audit, owner, at, new Date(at.getTime() + 60_000))).toBe(true);
  await store.commit(audit, changes, { owner, until: UNTIL });
  await store.releaseLease(audit, owner);
}

describe("DynamoAuditStore: the snapshot kept between runs", () => {
  it("reads no snapshot item again while the snapshot is unchanged", async () => {
    const a = await counted();
    await commitAs(inTableStore(), "kept", "seed", puts(ids(300, "k")));
    expect((await a.store.loadSnapshot("kept")).size).toBe(300);
    a.calls.clear();
    const again = await a.store.loadSnapshot("kept");
    expect(again).toEqual(await inTable("kept"));
    expect(a.calls.get("QueryCommand") ?? 0).toBe(0);
  });

  it("starts its next run from what it committed, without reading it", async () => {
    const a = await counted();
    await commitAs(inTableStore(), "own", "seed", puts(ids(50, "o")));
    await a.store.loadSnapshot("own");
    await commitAs(a.store, "own", "run-1", [
      ...puts(["o-1", "new-1"], "error"),
      { op: "delete", key: "o-2" },
    ]);
    a.calls.clear();
    const next = await a.store.loadSnapshot("own");
    expect(a.calls.get("QueryCommand") ?? 0).toBe(0);
    expect(next).toEqual(await inTable("own"));
    expect(next.get("o-1")?.finding.labels.state).toBe("error");
    expect(next.has("o-2")).toBe(false);
  });

  it("sees another store's commit at its next load", async () => {
    const a = await counted();
    await commitAs(inTableStore(), "other", "seed", puts(ids(20, "x")));
    await a.store.loadSnapshot("other");
    await commitAs(inTableStore(), "other", "elsewhere", [{ op: "delete", key: "x-3" }, ...puts(["y"])]);
    const next = await a.store.loadSnapshot("other");
    expect(next).toEqual(await inTable("other"));
    expect(next.has("x-3")).toBe(false);
    expect(next.has("y")).toBe(true);
  });

  it("reads the snapshot again, in every store, after a commit that broke off midway", async () => {
    const a = await counted();
    await commitAs(inTableStore(), "broken", "seed", puts(ids(60, "b")));
    await a.store.loadSnapshot("broken");
    // A commit whose second batch of 25 fails for good: the first batch is in the table.
    const breaking = await counted();
    let batches = 0;
    breaking.client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName?.startsWith("BatchWrite") && ++batches > 1)
          throw new Error("the network went away");
        return next(args);
      },
      { step: "initialize", name: "failSecondBatch" },
    );
    expect(await breaking.store.acquireLease("broken", "breaking", T0, UNTIL)).toBe(true);
    await expect(
      breaking.store.commit("broken", puts(ids(60, "b"), "error"), { owner: "breaking", until: UNTIL }),
    ).rejects.toThrow(/network/);
    const next = await a.store.loadSnapshot("broken");
    expect(next).toEqual(await inTable("broken"));
    expect([...next.values()].filter((e) => e.finding.labels.state === "error").length).toBe(25);
  });

  it("keeps no read that a commit overlapped", async () => {
    const a = await counted();
    await commitAs(inTableStore(), "overlap", "seed", puts(ids(30, "v")));
    // Another run commits after this store read the version and before it reads the items.
    let once = true;
    a.client.middlewareStack.add(
      (next, context) => async (args) => {
        if (once && context.commandName === "QueryCommand") {
          once = false;
          await commitAs(inTableStore(), "overlap", "meanwhile", puts(["meanwhile"]), LATER);
        }
        return next(args);
      },
      { step: "initialize", name: "commitBeforeFirstQuery" },
    );
    await a.store.loadSnapshot("overlap");
    a.calls.clear();
    expect(await a.store.loadSnapshot("overlap")).toEqual(await inTable("overlap"));
    expect(a.calls.get("QueryCommand") ?? 0).toBeGreaterThan(0);
  });

  it("keeps nothing while a run that outlived its lease writes beside the run that took it over", async () => {
    // Run A's lease expires while its batch is held back; run B takes over and commits; A goes on.
    const a = await counted();
    await commitAs(a.store, "late", "seed", puts(ids(30, "l")));
    await a.store.loadSnapshot("late");
    const batch = { reached: (): void => undefined, resume: (): void => undefined };
    const reached = new Promise<void>((r) => {
      batch.reached = r;
    });
    const resumed = new Promise<void>((r) => {
      batch.resume = r;
    });
    let holding = true;
    a.client.middlewareStack.add(
      (next, context) => async (args) => {
        if (holding && context.commandName?.startsWith("BatchWrite")) {
          holding = false;
          batch.reached();
          await resumed;
        }
        return next(args);
      },
      { step: "initialize", name: "holdFirstBatch" },
    );
    expect(await a.store.acquireLease("late", "run-a", T0, new Date(T0.getTime() + 60_000))).toBe(true);
    const commitA = a.store.commit("late", puts(["from-a"]), { owner: "run-a", until: LATER });
    await reached;
    const b = await counted();
    await commitAs(b.store, "late", "run-b", puts(["from-b"]), new Date(LATER.getTime() + 1));
    batch.resume();
    await commitA;
    const c = await counted();
    await c.store.loadSnapshot("late");
    c.calls.clear();
    const table = await c.store.loadSnapshot("late");
    // Both runs' items are in the table, and no store may trust a kept copy of it.
    expect(table.has("from-a") && table.has("from-b")).toBe(true);
    expect(c.calls.get("QueryCommand") ?? 0).toBeGreaterThan(0);
    for (const store of [a, b]) {
      store.calls.clear();
      expect(await store.store.loadSnapshot("late")).toEqual(table);
      expect(store.calls.get("QueryCommand") ?? 0).toBeGreaterThan(0);
    }
  });

  it("returns entries that a caller can neither change in place nor change for the next load", async () => {
    const a = await counted();
    await commitAs(inTableStore(), "frozen", "seed", puts(ids(5, "f")));
    const first = await a.store.loadSnapshot("frozen");
    first.delete("f-0");
    first.set("intruder", entry("intruder"));
    expect(() => {
      (first.get("f-1") as SnapshotEntry).clearRuns = 7;
    }).toThrow(TypeError);
    expect(() => {
      ((first.get("f-1") as SnapshotEntry).finding.labels as Record<string, string>).state = "ok";
    }).toThrow(TypeError);
    const next = await a.store.loadSnapshot("frozen");
    expect(next).toEqual(await inTable("frozen"));
    expect(next.has("f-0") && !next.has("intruder")).toBe(true);
  });
});

function inTableStore(): DynamoAuditStore {
  return new DynamoAuditStore({ client: env.db.client, tableName: "audit" });
}
