import { type CreateTableCommandInput, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { applicationTraffic } from "@fleet-auditor/keb-kubeedge-sim";
import {
  coalesce,
  comparePrecedence,
  decodeMessage,
  type Precedence,
  toUpdate,
} from "@fleet-auditor/metaserver";
import {
  DynamoStatusStore,
  documentClient,
  ensureTable,
  STATUS_INDEXES,
  statusTableDefinition,
  statusUpdateCommand,
  WATCH_SHARDS,
} from "@fleet-auditor/store";
import { ingestBatch } from "@fleet-auditor/use-cases";
import { launchDynamoLocal } from "../helpers/dynamo-local.ts";
import { type BenchOptions, javaPresent } from "./kit.ts";

const BATCH = 100;
const RUN = Date.now();
/**
 * The traffic; the messages measured on DynamoDB Local (it takes about 130 writes a second
 * here); a response arrives `delay` messages after its request. And a smoke size.
 */
const SIZES = {
  full: { messages: 100_000, nodes: 10_000, sample: 6_000, delay: 1_000 },
  smoke: { messages: 2_000, nodes: 200, sample: 100, delay: 50 },
};

/**
 * The status table before the sharded watch index, for comparison: `byStatus` (status, ts) with seven partition
 * key values, every attribute projected.
 */
function todayDefinition(tableName: string): CreateTableCommandInput {
  const key = (hash: string, range: string) => [
    { AttributeName: hash, KeyType: "HASH" as const },
    { AttributeName: range, KeyType: "RANGE" as const },
  ];
  return {
    TableName: tableName,
    BillingMode: "PAY_PER_REQUEST",
    AttributeDefinitions: [
      ...["id", "node", "status", "qk", "receivedAt"].map((AttributeName) => ({
        AttributeName,
        AttributeType: "S" as const,
      })),
      { AttributeName: "ts", AttributeType: "N" as const },
    ],
    KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
    GlobalSecondaryIndexes: [
      { IndexName: "byNode", KeySchema: key("node", "ts"), Projection: { ProjectionType: "ALL" } },
      { IndexName: "byStatus", KeySchema: key("status", "ts"), Projection: { ProjectionType: "ALL" } },
      {
        IndexName: "byQuarantine",
        KeySchema: key("qk", "receivedAt"),
        Projection: { ProjectionType: "ALL" },
      },
    ],
  };
}

/** What a row holds of one index: its key, and the projected attributes' values. */
interface IndexEntry {
  hash: string;
  range: string;
  projected: string;
}

/**
 * Index writes per partition key value, by DynamoDB's rule for a global secondary index: one
 * write when a row enters or leaves the index or changes only attributes the index projects,
 * none when it changes nothing the index holds, two (a delete and a put) when its key changes.
 */
class IndexWrites {
  readonly perKey = new Map<string, Map<string, number>>();
  readonly #indexes: Array<{ name: string; hash: string; range: string; projects: string[] | "ALL" }>;
  readonly #rows = new Map<string, Map<string, IndexEntry | undefined>>();

  constructor(definition: CreateTableCommandInput) {
    this.#indexes = (definition.GlobalSecondaryIndexes ?? []).map((i) => ({
      name: i.IndexName as string,
      hash: i.KeySchema?.[0]?.AttributeName as string,
      range: i.KeySchema?.[1]?.AttributeName as string,
      projects: i.Projection?.ProjectionType === "ALL" ? "ALL" : [...(i.Projection?.NonKeyAttributes ?? [])],
    }));
    for (const i of this.#indexes) this.perKey.set(i.name, new Map());
  }

  /** An applied UpdateItem of row `id` with these `:attr` values (absent: the attribute is removed). */
  applied(id: string, values: Record<string, unknown>): void {
    const before = this.#rows.get(id);
    const after = new Map<string, IndexEntry | undefined>();
    // The table's own key is in the Key, not among the values.
    const value = (attr: string) => (attr === "id" ? id : values[`:${attr}`]);
    for (const index of this.#indexes) {
      const [hash, range] = [value(index.hash), value(index.range)];
      const projected = index.projects === "ALL" ? "" : JSON.stringify(index.projects.map(value));
      const now =
        hash !== undefined && range !== undefined
          ? { hash: String(hash), range: String(range), projected }
          : undefined;
      after.set(index.name, now);
      const was = before?.get(index.name);
      if (was && now && (was.hash !== now.hash || was.range !== now.range)) {
        this.#count(index.name, was.hash);
        this.#count(index.name, now.hash);
      } else if (was && now) {
        // Every update writes `updatedAt`: a row projected whole always changes.
        if (index.projects === "ALL" || was.projected !== now.projected) this.#count(index.name, now.hash);
      } else if (now) this.#count(index.name, now.hash);
      else if (was) this.#count(index.name, was.hash);
    }
    this.#rows.set(id, after);
  }

  total(index: string): number {
    return [...(this.perKey.get(index)?.values() ?? [])].reduce((a, b) => a + b, 0);
  }

  #count(index: string, hash: string): void {
    const keys = this.perKey.get(index) as Map<string, number>;
    keys.set(hash, (keys.get(hash) ?? 0) + 1);
  }
}

/** What one design's writes cost on DynamoDB Local: the units it charged, and writes per index key. */
interface Measured {
  messages: number;
  tableUnits: number;
  refusedWrites: number;
  indexUnits: Map<string, number>;
  writes: IndexWrites;
}

/**
 * Runs the real ingest path (`ingestBatch` → `DynamoStatusStore`) over one table on DynamoDB
 * Local, which reports the units each UpdateItem consumed on the table and on each index
 * (dynalite reports none for indexes), one batch after another as one Lambda consumer would.
 */
async function measure(
  endpoint: string,
  definition: CreateTableCommandInput,
  batches: string[][],
): Promise<Measured> {
  const raw = new DynamoDBClient({
    endpoint,
    region: "local",
    // DynamoDB Local keeps a database per access key: this run's own, so its tables start empty.
    credentials: { accessKeyId: `capacity${RUN}`, secretAccessKey: "capacity" },
  });
  await ensureTable(raw, definition);
  const client = documentClient(raw);
  const m: Measured = {
    messages: 0,
    tableUnits: 0,
    refusedWrites: 0,
    indexUnits: new Map(),
    writes: new IndexWrites(definition),
  };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      // The document client names its command after the low-level one it sends.
      if (!["UpdateCommand", "UpdateItemCommand"].includes(context.commandName ?? "")) return next(args);
      const input = args.input as {
        Key: { id: string };
        ExpressionAttributeValues: Record<string, unknown>;
        ReturnConsumedCapacity?: string;
      };
      input.ReturnConsumedCapacity = "INDEXES";
      let result: Awaited<ReturnType<typeof next>>;
      try {
        result = await next(args);
      } catch (err) {
        // A refused conditional write still costs a write unit on the table, none on an index.
        if ((err as Error).name === "ConditionalCheckFailedException") {
          m.refusedWrites++;
          m.tableUnits++;
        }
        throw err;
      }
      const consumed = (result.output as { ConsumedCapacity?: unknown }).ConsumedCapacity as {
        Table?: { CapacityUnits?: number };
        GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
      };
      m.tableUnits += consumed.Table?.CapacityUnits ?? 0;
      for (const [name, units] of Object.entries(consumed.GlobalSecondaryIndexes ?? {})) {
        m.indexUnits.set(name, (m.indexUnits.get(name) ?? 0) + (units.CapacityUnits ?? 0));
      }
      m.writes.applied(input.Key.id, input.ExpressionAttributeValues);
      return result;
    },
    { step: "initialize", name: "capacityRecorder" },
  );
  const store = new DynamoStatusStore({ client, tableName: definition.TableName as string });
  for (const [i, batch] of batches.entries()) {
    const { counts } = await ingestBatch(
      { store },
      batch.map((body, j) => ({ messageId: `b${i}-${j}`, body })),
    );
    if (counts.failed > 0) throw new Error(`batch ${i}: ${counts.failed} write(s) failed`);
    m.messages += batch.length;
  }
  raw.destroy();
  return m;
}

/**
 * The same batches through the same pure code the handler runs (decode, fold per batch, build the
 * UpdateItem), applied to an in-memory table under the store's condition (newer message wins):
 * the index writes per key at a scale DynamoDB Local would take half an hour for.
 */
function replay(definition: CreateTableCommandInput, batches: string[][]): IndexWrites {
  const writes = new IndexWrites(definition);
  const winners = new Map<string, Precedence>();
  const now = new Date();
  const ttl = { finishedTtlHours: 72, unfinishedTtlDays: 30 };
  for (const batch of batches) {
    const updates = batch.flatMap((body) => {
      const message = decodeMessage(body);
      return message.applications.map((a) => toUpdate(message, a));
    });
    for (const u of coalesce(updates).updates) {
      const was = winners.get(u.id);
      if (was && comparePrecedence(u, was) <= 0) continue;
      winners.set(u.id, u);
      const values = statusUpdateCommand("status", u, now, ttl).ExpressionAttributeValues ?? {};
      writes.applied(u.id, values);
    }
  }
  return writes;
}

/**
 * The traffic with each response `delay` messages after its request: at a real rate the cloud's
 * answer mostly lands in a later SQS batch, which is the dearer case for the indexes (a row
 * enters the watched set and leaves it again) than both folding into one write.
 */
export function delayedResponses(messages: string[], delay: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < messages.length / 2; i++) {
    out.push(messages[2 * i] as string);
    if (i >= delay) out.push(messages[2 * (i - delay) + 1] as string);
  }
  for (let i = Math.max(0, messages.length / 2 - delay); i < messages.length / 2; i++) {
    out.push(messages[2 * i + 1] as string);
  }
  return out;
}

/** The messages in batches of `size`, in order. */
export function batchesOf(messages: string[], size = BATCH): string[][] {
  return Array.from({ length: Math.ceil(messages.length / size) }, (_, i) =>
    messages.slice(i * size, (i + 1) * size),
  );
}

function largestShare(writes: IndexWrites, index: string): { key: string; share: number; total: number } {
  let top: [string, number] = ["", 0];
  for (const entry of writes.perKey.get(index) ?? []) if (entry[1] > top[1]) top = entry;
  const total = writes.total(index);
  return { key: top[0], share: total === 0 ? 0 : top[1] / total, total };
}

/**
 * `npm run bench -- apps` (second half): 100,000 messages (50,000 Applications, a request and a
 * response each, 10 % rejected) over 10,000 nodes, into today's table (`byStatus`) and into the
 * sharded sparse design (`byWatch`). Write units per message are measured on DynamoDB Local over
 * a sample of the traffic, where the replay of the handler's own writes must agree with the units
 * it charged; the per-key shares over all 100,000 come from that replay. Bars: no `byWatch` key
 * takes more than 1/N of its writes plus noise; no more write units per message than today.
 */
export async function benchAppsCapacity(
  say: (line: string) => void,
  options: BenchOptions = {},
): Promise<boolean> {
  const { messages, nodes, sample, delay } = options.smoke ? SIZES.smoke : SIZES.full;
  const traffic = applicationTraffic({ applications: messages / 2, nodes, seed: 12, distinct: true });
  const batches = batchesOf(delayedResponses(traffic, delay));
  const sampled = batchesOf(delayedResponses(traffic.slice(0, sample), delay));
  say(
    `Index capacity: ${traffic.length} messages, ${messages / 2} Applications, ${nodes} nodes, responses ${delay} messages after their requests, batches of ${BATCH}`,
  );
  if (!options.dynamoLocal && !(await javaPresent())) {
    say("  DynamoDB Local: left out (no java on PATH); write units not measured");
    return true;
  }
  const designs = {
    today: todayDefinition("status-today"),
    // With byNodeId (a stage's `nodeIndex`), so that the busiest node's share is measured too;
    // without it a message costs 0.50 write units less (the cost bench prices what prod declares).
    sharded: statusTableDefinition("status-sharded", { nodeIndex: true }),
  };
  const local = options.dynamoLocal
    ? { endpoint: options.dynamoLocal.endpoint, stop: async () => undefined }
    : await launchDynamoLocal();
  let ok = true;
  try {
    const started = performance.now();
    const units: Record<string, number> = {};
    for (const [name, definition] of Object.entries(designs)) {
      const m = await measure(local.endpoint, definition, sampled);
      const model = replay(definition, sampled);
      const indexTotal = [...m.indexUnits.values()].reduce((a, b) => a + b, 0);
      units[name] = (m.tableUnits + indexTotal) / m.messages;
      const perIndex = [...m.indexUnits].map(([n, u]) => `${n} ${(u / m.messages).toFixed(2)}`).join(", ");
      say(
        `  ${name.padEnd(8)} ${units[name]?.toFixed(2)} write units per message on DynamoDB Local (${m.messages} messages: table ${(m.tableUnits / m.messages).toFixed(2)}, ${perIndex}; ${m.refusedWrites} refused)`,
      );
      // The replay stands in for DynamoDB at 100,000 messages only if it agrees with it here.
      for (const [index, charged] of m.indexUnits) {
        const [fromWire, fromModel] = [m.writes.total(index), model.total(index)];
        const agrees = fromWire === charged && fromModel === charged;
        ok &&= agrees;
        say(
          `           ${index}: charged ${charged}, derived from the writes sent ${fromWire}, replayed ${fromModel} ${agrees ? "AGREE" : "DISAGREE"}`,
        );
      }
    }
    say(`  (DynamoDB Local: ${Math.round((performance.now() - started) / 1000)} s)`);
    const unitsOk =
      (units.today ?? 0) > 0 && (units.sharded ?? Number.POSITIVE_INFINITY) <= (units.today ?? 0);
    say(
      `  write units per message: ${units.sharded?.toFixed(2)} vs today ${units.today?.toFixed(2)} (bar: no more) ${unitsOk ? "PASS" : "FAIL"}`,
    );
    const today = largestShare(replay(designs.today, batches), "byStatus");
    say(
      `  today:   byStatus's busiest key "${today.key}" takes ${(today.share * 100).toFixed(1)} % of its ${today.total} writes (7 keys; one partition for all of them)`,
    );
    const shardedWrites = replay(designs.sharded, batches);
    const watch = largestShare(shardedWrites, STATUS_INDEXES.watch);
    // Two sets over N shards: the busiest key carries about 1/N of its set's writes, and the
    // open set has most of them; 1.3/N leaves room for the hash's noise on 50,000 IDs.
    const bar = 1.3 / WATCH_SHARDS;
    const shareOk = watch.share <= bar;
    say(
      `  sharded: byWatch's busiest key "${watch.key}" takes ${(watch.share * 100).toFixed(2)} % of its ${watch.total} writes (bar <= 1.3/${WATCH_SHARDS} = ${(bar * 100).toFixed(2)} %) ${shareOk ? "PASS" : "FAIL"}`,
    );
    const node = largestShare(shardedWrites, STATUS_INDEXES.byNode);
    say(
      `  sharded: ${STATUS_INDEXES.byNode}'s busiest node "${node.key}" takes ${(node.share * 100).toFixed(3)} % of its ${node.total} writes (a row enters it once)`,
    );
    return ok && unitsOk && shareOk;
  } finally {
    await local.stop();
  }
}
