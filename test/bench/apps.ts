import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { applicationTraffic } from "@fleet-auditor/keb-kubeedge-sim";
import { coalesce, decodeMessage, toUpdate } from "@fleet-auditor/metaserver";
import {
  DynamoStatusStore,
  documentClient,
  ensureTable,
  statusTableDefinition,
  statusUpdateCommand,
} from "@fleet-auditor/store";
import { ingestBatch } from "@fleet-auditor/use-cases";
import { countRequests, sumOf } from "../helpers/aws-requests.ts";
import { benchAppsCapacity } from "./apps-capacity.ts";
import { type BenchOptions, Report } from "./kit.ts";
import { startChildDynamo } from "./sim-child.ts";

const DUPLICATE_SHARE = 0.3;
const BATCH = 100;
/** The benchmark's workload, and a smoke size that runs in seconds. */
const SIZES = {
  full: { applications: 2_000, messages: 10_000 },
  smoke: { applications: 100, messages: 400 },
};

/** A deterministic shuffle (so two runs measure the same workload). */
function shuffle<T>(items: T[], seed: number): T[] {
  let s = seed >>> 0;
  const rnd = (): number => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

/**
 * 10,000 messages about 2,000 Applications: each a request and a response, and 1,500 of them
 * re-applied (a second round trip with new msg_ids); then 30% duplicates, shuffled.
 */
function workload(size: { applications: number; messages: number }): string[] {
  const first = applicationTraffic({ applications: size.applications, nodes: 50, seed: 11, distinct: true });
  const unique = Math.round(size.messages * (1 - DUPLICATE_SHARE));
  const again = first.slice(0, unique - first.length).map((body, i) => {
    const m = JSON.parse(body) as { header: { msg_id: string; parent_msg_id?: string; timestamp: number } };
    m.header.msg_id = `reapply-${i}-${m.header.msg_id}`;
    if (m.header.parent_msg_id) m.header.parent_msg_id = `reapply-${i - 1}-${m.header.parent_msg_id}`;
    m.header.timestamp += 3_600_000;
    return JSON.stringify(m);
  });
  const originals = [...first, ...again];
  const duplicates = Array.from(
    { length: size.messages - originals.length },
    (_, i) => originals[(i * 7919) % originals.length] as string,
  );
  return shuffle([...originals, ...duplicates], 42);
}

/** `npm run bench -- apps`: DynamoDB writes per batch and handler CPU per message. */
export async function benchApps(options: BenchOptions = {}): Promise<boolean> {
  const report = new Report(options);
  const say = report.say;
  const messages = workload(options.smoke ? SIZES.smoke : SIZES.full);
  const batches = Array.from({ length: Math.ceil(messages.length / BATCH) }, (_, i) =>
    messages.slice(i * BATCH, (i + 1) * BATCH),
  );
  const ids = new Set<string>();
  let pairs = 0;
  for (const batch of batches) {
    const inBatch = new Set(batch.map((b) => decodeMessage(b).applications[0]?.id as string));
    pairs += inBatch.size;
    for (const id of inBatch) ids.add(id);
  }
  say(
    `Applications benchmark (node ${process.version}): ${messages.length} messages, ${ids.size} Application IDs, ${Math.round(DUPLICATE_SHARE * 100)}% duplicates, shuffled, ${batches.length} batches of ${BATCH}`,
  );

  // CPU of the handler's own work, no I/O: parse every body, fold each batch, build each write.
  const now = new Date();
  const ttl = { finishedTtlHours: 72, unfinishedTtlDays: 30 };
  const runCpu = (): { perMessageMs: number; writes: number } => {
    const before = process.cpuUsage();
    let writes = 0;
    for (const batch of batches) {
      const updates = batch.flatMap((body) => {
        const m = decodeMessage(body);
        return m.applications.map((a) => toUpdate(m, a));
      });
      for (const u of coalesce(updates).updates) {
        statusUpdateCommand("status", u, now, ttl);
        writes++;
      }
    }
    const used = process.cpuUsage(before);
    return { perMessageMs: (used.user + used.system) / 1000 / messages.length, writes };
  };
  runCpu(); // warm-up (JIT)
  const rounds = Array.from({ length: 5 }, runCpu);
  const cpu = rounds.map((r) => r.perMessageMs).sort((a, b) => a - b)[2] as number;
  say(
    `handler CPU per message (parse, merge, build the write), median of 5: ${cpu.toFixed(4)} ms ${report.bar(cpu, "<", 0.2)}`,
  );

  // The real handler code against DynamoDB in another process, counting requests.
  const dynamo = await startChildDynamo([]);
  try {
    const raw = new DynamoDBClient({
      endpoint: dynamo.endpoint,
      region: "local",
      credentials: { accessKeyId: "b", secretAccessKey: "b" },
    });
    await ensureTable(raw, statusTableDefinition("status"));
    const client = documentClient(raw);
    const calls = countRequests(client);
    const store = new DynamoStatusStore({ client, tableName: "status" });
    const totals = { applied: 0, stale: 0, duplicate: 0, quarantined: 0, failed: 0 };
    const started = performance.now();
    for (const [i, batch] of batches.entries()) {
      const { counts } = await ingestBatch(
        { store },
        batch.map((body, j) => ({ messageId: `b${i}-${j}`, body })),
      );
      for (const k of Object.keys(totals) as Array<keyof typeof totals>) totals[k] += counts[k];
    }
    const ms = performance.now() - started;
    const writes = sumOf(calls, /^(Update|Put|Delete|BatchWrite)/);
    const reads = sumOf(calls, /^(Get|Query|Scan)/);
    say(
      `end to end through ingestBatch: ${Math.round(ms)} ms; ${totals.applied} applied, ${totals.stale} stale, ${totals.duplicate} duplicate, ${totals.failed} failed`,
    );
    say(
      `DynamoDB write requests: ${writes}; distinct (batch, ID) pairs: ${pairs}; messages: ${messages.length} ${report.bar(writes, "<=", pairs)}`,
    );
    say(
      `  reads: ${reads} (dynalite returns no old item on a refused write, so each refusal costs one GetItem to tell duplicate from stale; DynamoDB returns it with the error)`,
    );
    raw.destroy();
    if (totals.failed > 0) report.ok = false;
  } finally {
    await dynamo.stop();
  }
  const capacity = await benchAppsCapacity(say, options);
  return capacity && report.ok;
}
