import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import {
  DEFAULT_POLICY,
  type Finding,
  type SnapshotChange,
  type SnapshotEntry,
  unchangedSince,
} from "@fleet-auditor/audit";
import { kebPresenter } from "@fleet-auditor/keb-audits";
import { DynamoAuditStore, documentClient, itemKey } from "@fleet-auditor/store";
import { afterAll, describe, expect, it } from "vitest";
import { countRequests } from "../../helpers/aws-requests.ts";
import { useDynamo } from "../../helpers/dynamo.ts";
import { finding } from "../../helpers/findings.ts";

// Every commit settles the snapshot's version with the fingerprint of the snapshot it leaves, in
// one write: a new store (a new Lambda container) reads that one item and, when the run changes
// nothing, no snapshot item. A fingerprint is never trusted when it may not describe the table:
// while a commit is under way, after one that broke off, after a commit by a store that had not
// read the snapshot, or when it cannot be decoded; then there is none, and the snapshot is read.

const env = useDynamo();
const T0 = new Date("2026-11-01T00:00:00Z");
const UNTIL = new Date("2026-11-02T00:00:00Z");
const TOLD = "2026-11-01T00:00:00.000Z";
const { problemKey } = kebPresenter;
const entry = (id: string, state = "failed"): SnapshotEntry => ({
  key: id,
  phase: "firing",
  finding: finding(id, state),
  flaggedRuns: 1,
  clearRuns: 0,
  firstSeenAt: TOLD,
  notifiedAt: TOLD,
  version: 1,
});
const puts = (ids: string[], state?: string): SnapshotChange[] =>
  ids.map((id) => ({ op: "put", entry: entry(id, state) }));
const ids = (n: number, tag: string): string[] => Array.from({ length: n }, (_, i) => `${tag}-${i}`);
/** Whether a run listing `findings` an hour after they were told would change nothing. */
const steady = (print: Parameters<typeof unchangedSince>[0], findings: Finding[]): boolean =>
  unchangedSince(print, {
    audit: "failing",
    findings,
    problemKey,
    complete: true,
    now: new Date("2026-11-01T01:00:00Z"),
    policy: DEFAULT_POLICY,
  });

const clients: DynamoDBClient[] = [];
afterAll(() => {
  for (const c of clients) c.destroy();
});

/** A store as a new container has it: its own SDK client, its requests counted by command. */
async function fresh(): Promise<{
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

/** Reads the snapshot (as a run that changes something does), then commits as the lease holder. */
async function runCommits(store: DynamoAuditStore, audit: string, changes: SnapshotChange[]): Promise<void> {
  await store.loadSnapshot(audit);
  expect(await store.acquireLease(audit, "run", T0, UNTIL)).toBe(true);
  await store.commit(audit, changes, { owner: "run", until: UNTIL }, problemKey);
  await store.releaseLease(audit, "run");
}

describe("DynamoAuditStore: the snapshot's fingerprint", () => {
  it("is settled with each commit, and a new store reads it in one item and no snapshot item", async () => {
    await runCommits((await fresh()).store, "one", puts(ids(200, "o")));
    const cold = await fresh();
    const print = await cold.store.loadFingerprint("one");
    expect([...cold.calls]).toEqual([["GetItemCommand", 1]]);
    expect(print?.size).toBe(200);
    expect(
      steady(
        print ?? new Map(),
        ids(200, "o").map((id) => finding(id)),
      ),
    ).toBe(true);
  });

  it("describes the snapshot after each commit: what it put, changed and deleted", async () => {
    const writer = (await fresh()).store;
    await runCommits(writer, "moves", puts(ids(20, "m")));
    await runCommits(writer, "moves", [
      ...puts(["m-0"], "error"),
      { op: "delete", key: "m-1" },
      ...puts(["added"]),
    ]);
    const print = await (await fresh()).store.loadFingerprint("moves");
    const table = await (await fresh()).store.loadSnapshot("moves");
    expect([...(print?.keys() ?? [])].sort()).toEqual([...table.keys()].sort());
    const now = table.get("m-0") as SnapshotEntry;
    expect(
      steady(
        print ?? new Map(),
        [...table.values()].map((e) => e.finding),
      ),
    ).toBe(true);
    expect(
      steady(
        print ?? new Map(),
        [...table.values()].map((e) => (e === now ? finding("m-0") : e.finding)),
      ),
    ).toBe(false);
  });

  it("is none while a commit is under way or after one that broke off midway", async () => {
    await runCommits((await fresh()).store, "broken", puts(ids(60, "b")));
    const breaking = await fresh();
    await breaking.store.loadSnapshot("broken");
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
      breaking.store.commit(
        "broken",
        puts(ids(60, "b"), "error"),
        { owner: "breaking", until: UNTIL },
        problemKey,
      ),
    ).rejects.toThrow(/network/);
    expect(await (await fresh()).store.loadFingerprint("broken")).toBeUndefined();
  });

  it("is none after a commit by a store that had not read the snapshot, until a store that read it commits", async () => {
    await runCommits((await fresh()).store, "blind", puts(ids(10, "x")));
    const blind = (await fresh()).store;
    expect(await blind.acquireLease("blind", "blind", T0, UNTIL)).toBe(true);
    await blind.commit("blind", puts(["y"]), { owner: "blind", until: UNTIL }, problemKey);
    await blind.releaseLease("blind", "blind");
    expect(await (await fresh()).store.loadFingerprint("blind")).toBeUndefined();
    await runCommits((await fresh()).store, "blind", puts(["z"]));
    expect((await (await fresh()).store.loadFingerprint("blind"))?.size).toBe(12);
  });

  it("is none when the commit was not told how problems are judged", async () => {
    const store = (await fresh()).store;
    await store.loadSnapshot("unjudged");
    expect(await store.acquireLease("unjudged", "run", T0, UNTIL)).toBe(true);
    await store.commit("unjudged", puts(["u"]), { owner: "run", until: UNTIL });
    expect(await (await fresh()).store.loadFingerprint("unjudged")).toBeUndefined();
  });

  it("reads as none when it cannot be decoded, never as an empty snapshot", async () => {
    await runCommits((await fresh()).store, "damaged", puts(ids(5, "d")));
    await env.db.client.send(
      new PutCommand({
        TableName: "audit",
        Item: {
          ...itemKey.snapshotVersion("damaged"),
          version: "v-1",
          fingerprint: new Uint8Array([1, 2, 3]),
        },
      }),
    );
    expect(await (await fresh()).store.loadFingerprint("damaged")).toBeUndefined();
  });

  it("is read whole again by a warm store only when another store committed since", async () => {
    await runCommits((await fresh()).store, "warm", puts(ids(30, "w")));
    const warm = await fresh();
    await warm.store.loadFingerprint("warm");
    // What each read brought back: the fingerprint, or only the version.
    const fields: string[][] = [];
    warm.client.middlewareStack.add(
      (next) => async (args) => {
        const out = await next(args);
        const item = (out.output as { Item?: Record<string, unknown> }).Item;
        if (item) fields.push(Object.keys(item).sort());
        return out;
      },
      { step: "initialize", name: "fieldsRead" },
    );
    warm.calls.clear();
    expect((await warm.store.loadFingerprint("warm"))?.size).toBe(30);
    expect([...warm.calls]).toEqual([["GetItemCommand", 1]]);
    expect(fields).toEqual([["version"]]);
    await runCommits((await fresh()).store, "warm", puts(["another"]));
    warm.calls.clear();
    expect((await warm.store.loadFingerprint("warm"))?.has("another")).toBe(true);
    expect([...warm.calls]).toEqual([["GetItemCommand", 2]]);
    expect(fields.slice(1)).toEqual([["version"], ["fingerprint", "pk", "sk", "version"]]);
  });
});
