import {
  type ConsumedCapacity,
  type CreateTableCommandInput,
  DescribeTableCommand,
  type GlobalSecondaryIndexDescription,
  UpdateTableCommand,
} from "@aws-sdk/client-dynamodb";
import { decodeMessage, type StatusUpdate, toUpdate } from "@fleet-auditor/metaserver";
import {
  DynamoStatusStore,
  ensureTable,
  RETIRING_STATUS_INDEXES,
  retiringStatusIndexes,
  STATUS_INDEXES,
  statusTableDefinition,
} from "@fleet-auditor/store";
import { beforeAll, describe, expect, it } from "vitest";
import { useDynamo } from "../../helpers/dynamo.ts";

// Changing an index of the status table on a live stage (docs/kubeedge.md#changing-an-index): DynamoDB
// cannot change an index's key or projection in place, so the new index is added beside the old
// one, readers use it once it can be read, and the old one is then dropped. No read may fail or
// answer differently on the way: a failed read makes the applications audit incomplete.

const dynamo = useDynamo([]);
const local = process.env.FLEET_AUDITOR_DYNAMO === "local";
const NOW = new Date(Date.UTC(2026, 10, 30, 12, 0));
const ms = (minutesAgo: number) => NOW.getTime() - minutesAgo * 60_000;

/** The status table as the release before this one created it: byNode and byQuarantine, whole rows. */
function tableBefore(name: string): CreateTableCommandInput {
  const now = statusTableDefinition(name, { retiringIndexes: true });
  const kept = (now.GlobalSecondaryIndexes ?? []).filter((i) => i.IndexName === STATUS_INDEXES.watch);
  return { ...now, GlobalSecondaryIndexes: [...kept, ...retiringStatusIndexes()] };
}

function update(id: string, status: string, ts: number, msgId: string, node: string): StatusUpdate {
  const m = decodeMessage(
    JSON.stringify({
      header: { msg_id: msgId, timestamp: ts },
      route: { resource: `node/${node}/null` },
      content: { ID: id, Key: "/core/v1/configmaps/default/cfg", Verb: "get", Status: status },
    }),
  );
  return toUpdate(m, m.applications[0] as NonNullable<(typeof m.applications)[0]>);
}

const quarantined = (n: number, minutesAgo: number, code: string) => ({
  sqsMessageId: `sqs-${n}`,
  reason: `reason ${n}`,
  code,
  body: `{broken ${n}`,
  bodyBytes: 9,
  truncated: false,
  receivedAt: new Date(ms(minutesAgo)).toISOString(),
});

/** What every reader of the table answers: the figures that must not change during a migration. */
async function answers(s: DynamoStatusStore) {
  return {
    node: await s.query({ node: "edge-1" }, NOW),
    nodeRefused: await s.query({ node: "edge-1", status: "Rejected", since: new Date(ms(50)) }, NOW),
    nodeNewest: await s.query({ node: "edge-2", limit: 1 }, NOW),
    quarantined: await s.quarantined(),
    codes: await s.quarantinedCodes(new Date(ms(60))),
    open: await s.watched({ set: "open", before: new Date(ms(5)) }, NOW),
  };
}

/** Which index each query of the store's client went to, and what each write cost the indexes. */
const seen = { indexes: [] as string[], capacity: [] as ConsumedCapacity[] };
beforeAll(() => {
  dynamo.db.client.middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as { IndexName?: string; ReturnConsumedCapacity?: string };
      if (input.IndexName) seen.indexes.push(input.IndexName);
      input.ReturnConsumedCapacity = "INDEXES";
      const out = await next(args);
      const used = (out.output as { ConsumedCapacity?: ConsumedCapacity }).ConsumedCapacity;
      if (used) seen.capacity.push(used);
      return out;
    },
    { step: "initialize", name: "recordIndexUse" },
  );
});

async function filled(table: string): Promise<DynamoStatusStore> {
  await ensureTable(dynamo.db.client, tableBefore(table));
  return fill(new DynamoStatusStore({ client: dynamo.db.client, tableName: table }));
}

async function fill(s: DynamoStatusStore): Promise<DynamoStatusStore> {
  await s.apply(update("a1", "Rejected", ms(40), "a1m", "edge-1"), NOW);
  await s.apply(update("a2", "InApplying", ms(30), "a2m", "edge-1"), NOW);
  await s.apply(update("a3", "Rejected", ms(90), "a3m", "edge-1"), NOW);
  await s.apply(update("b1", "Approved", ms(20), "b1m", "edge-2"), NOW);
  await s.apply(update("b2", "InApplying", ms(10), "b2m", "edge-2"), NOW);
  await s.quarantine(quarantined(1, 10, "MS_NOT_JSON"));
  await s.quarantine(quarantined(2, 30, "MS_BAD_HEADER"));
  await s.quarantine(quarantined(3, 120, "MS_NOT_JSON"));
  return s;
}

describe("the status table's index change, step by step", () => {
  it("answers from the retiring indexes while the new ones do not exist", async () => {
    const s = await filled("status-before");
    seen.indexes.length = 0;
    const before = await answers(s);
    expect(before.node.map((r) => r.id)).toEqual(["a2", "a1", "a3"]);
    expect(before.nodeRefused.map((r) => r.id)).toEqual(["a1"]);
    expect(before.nodeNewest.map((r) => r.id)).toEqual(["b2"]);
    expect(before.quarantined.map((q) => q.sqsMessageId)).toEqual(["sqs-1", "sqs-2", "sqs-3"]);
    expect(before.quarantined[0]?.body).toBe("{broken 1");
    expect(before.codes).toEqual([
      { code: "MS_NOT_JSON", receivedAt: new Date(ms(10)).toISOString() },
      { code: "MS_BAD_HEADER", receivedAt: new Date(ms(30)).toISOString() },
    ]);
    expect(before.open.map((r) => r.id).sort()).toEqual(["a2", "b2"]);
    // Each new index was tried and refused; the retiring byQuarantine read, and the node's rows
    // scanned for (never the retiring byNode, which a stage drops while node queries run).
    expect(seen.indexes).toContain(STATUS_INDEXES.byNode);
    expect(seen.indexes).not.toContain(RETIRING_STATUS_INDEXES.byNode);
    expect(seen.indexes).toContain(RETIRING_STATUS_INDEXES.quarantine);
    // The same answers as on a table made with today's definition, with byNodeId or without it
    // (a stage's `nodeIndex`: the node's rows are then scanned for).
    for (const nodeIndex of [true, false]) {
      const name = `status-now-${nodeIndex}`;
      await ensureTable(dynamo.db.client, statusTableDefinition(name, { nodeIndex }));
      const fresh = new DynamoStatusStore({ client: dynamo.db.client, tableName: name });
      await fill(fresh);
      expect(await answers(fresh)).toEqual(before);
    }
  });

  // dynalite cannot add an index to a table (it asks for provisioned throughput on an on-demand
  // table), so the steps themselves run on AWS's DynamoDB Local.
  for (const nodeIndex of [true, false])
    it.runIf(local)(
      `adds the new indexes beside the old, reads them once they can be read, drops the old, and answers the same throughout (nodeIndex ${nodeIndex})`,
      async () => {
        const table = `status-migrated-${nodeIndex}`;
        const s = await filled(table);
        const expected = await answers(s);
        const write = async (ts: number, msgId: string) => {
          seen.capacity.length = 0;
          await s.apply(update("a2", "InApplying", ts, msgId, "edge-1"), NOW);
          return seen.capacity.at(-1)?.GlobalSecondaryIndexes ?? {};
        };
        // Before: a message that moves a row's time rewrites its whole byNode entry (a delete and a put).
        expect((await write(ms(29), "a2m2"))[RETIRING_STATUS_INDEXES.byNode]?.CapacityUnits).toBe(2);
        expected.node = await s.query({ node: "edge-1" }, NOW);
        expected.open = await s.watched({ set: "open", before: new Date(ms(5)) }, NOW);

        // A stage with `nodeIndex` gets byNodeId; one without reads a node's rows from a scan once
        // byNode is dropped.
        const wanted = statusTableDefinition(table, { nodeIndex });
        const definitionOf = (name: string) =>
          wanted.GlobalSecondaryIndexes?.find((i) => i.IndexName === name);
        const added = nodeIndex
          ? [STATUS_INDEXES.byNode, STATUS_INDEXES.quarantine]
          : [STATUS_INDEXES.quarantine];
        // Step 1: each new index beside the old one (DynamoDB takes one index change per UpdateTable).
        for (const name of added) {
          await dynamo.db.client.send(
            new UpdateTableCommand({
              TableName: table,
              AttributeDefinitions: wanted.AttributeDefinitions,
              GlobalSecondaryIndexUpdates: [{ Create: definitionOf(name) }],
            }),
          );
          // Readers never fail while it is created and backfilled.
          expect(await answers(s)).toEqual(expected);
          await untilIndexes(table, (all) => all.every((i) => i.IndexStatus === "ACTIVE"));
        }
        // Step 2: readers are on the new indexes by themselves, once they can be read.
        seen.indexes.length = 0;
        expect(await answers(s)).toEqual(expected);
        expect(seen.indexes).toContain(STATUS_INDEXES.byNode);
        expect(seen.indexes).toContain(STATUS_INDEXES.quarantine);
        expect(seen.indexes).not.toContain(RETIRING_STATUS_INDEXES.byNode);
        expect(seen.indexes).not.toContain(RETIRING_STATUS_INDEXES.quarantine);
        // Step 3: the old indexes dropped, one at a time.
        for (const name of [RETIRING_STATUS_INDEXES.byNode, RETIRING_STATUS_INDEXES.quarantine]) {
          await dynamo.db.client.send(
            new UpdateTableCommand({
              TableName: table,
              GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: name } }],
            }),
          );
          expect(await answers(s)).toEqual(expected);
          await untilIndexes(table, (all) => all.every((i) => i.IndexName !== name));
        }
        expect(await answers(s)).toEqual(expected);
        // The table ends where today's definition starts one.
        const { Table } = await dynamo.db.client.send(new DescribeTableCommand({ TableName: table }));
        const shape = (i: {
          IndexName?: string;
          KeySchema?: unknown;
          Projection?: { ProjectionType?: string; NonKeyAttributes?: string[] };
        }) => ({
          name: i.IndexName,
          key: i.KeySchema,
          projection: i.Projection?.ProjectionType,
          attributes: [...(i.Projection?.NonKeyAttributes ?? [])].sort(),
        });
        expect((Table?.GlobalSecondaryIndexes ?? []).map(shape).sort(byName)).toEqual(
          (wanted.GlobalSecondaryIndexes ?? []).map(shape).sort(byName),
        );
        // After: the same message costs byNodeId nothing (its keys did not change) and no index twice.
        const after = await write(ms(28), "a2m3");
        expect(after[STATUS_INDEXES.byNode]).toBeUndefined();
        expect(after[RETIRING_STATUS_INDEXES.byNode]).toBeUndefined();
      },
    );
});

const byName = (a: { name?: string }, b: { name?: string }) => String(a.name).localeCompare(String(b.name));

async function untilIndexes(
  table: string,
  done: (indexes: GlobalSecondaryIndexDescription[]) => boolean,
): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { Table } = await dynamo.db.client.send(new DescribeTableCommand({ TableName: table }));
    if (done(Table?.GlobalSecondaryIndexes ?? [])) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the indexes of ${table} did not settle`);
}
