import { DeleteCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { RunSummary } from "@fleet-auditor/audit";
import {
  auditTableDefinition,
  DynamoAuditStore,
  DynamoReportStore,
  ensureTable,
  itemKey,
} from "@fleet-auditor/store";
import { runAudit } from "@fleet-auditor/use-cases";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { useDynamo } from "../helpers/dynamo.ts";
import { type FaultRule, gate, useFaultProxy } from "../helpers/fault-proxy.ts";
import { invokeInProcess } from "../helpers/function-process.ts";
import { useKebSimulator } from "../helpers/keb.ts";
import { emulatorEnv, fakeContext, withEnv } from "../helpers/lambda.ts";
import { FleetSource, MemoryAuditStore, MemoryPublisher } from "../helpers/memory-ports.ts";
import { type Delivered, useSns } from "../helpers/sns.ts";
import { testAudits } from "../helpers/test-audits.ts";

// Fault matrix for the audit function: the real handler against the KEB simulator,
// dynalite and fauxqs, with faults injected on the wire by a proxy in front of DynamoDB and SNS
// (the SDK's own retries and error parsing run). After each fault, the scheduler's retry and the
// next healthy run; then the invariants: no false resolve, every transition told, none told twice
// for one scheduled time (except the re-send after a crash between publish and commit, which
// SNS cannot make exactly-once: told at most twice, and only that run's digest), and the
// snapshot equals the flagged fleet.

const kit = useKebSimulator({ fleet: { size: 300, seed: 43, flagged: 30 } });
const dynamo = useDynamo([]);
const sns = useSns();
const ddbProxy = useFaultProxy(() => dynamo.db.endpoint);
const snsProxy = useFaultProxy(() => `http://127.0.0.1:${sns.server.port}`);
let drain: () => Promise<Delivered[]>;
let restore: () => void = () => undefined;
let tables = 0;

// Scheduled times near the clock (a run that writes refuses times days away from it).
const HOUR = 3_600_000;
const BASE = Math.floor(Date.now() / HOUR) * HOUR - 12 * HOUR;
const sched = (k: number): string => new Date(BASE + k * HOUR).toISOString();

beforeAll(async () => {
  drain = await sns.subscriber("faults-all");
});
afterEach(() => {
  restore();
  ddbProxy.proxy.clear();
  snsProxy.proxy.clear();
});

/** A fresh audit table and the environment of a function cold-started on it. */
async function scenario(): Promise<{ table: string; env: Record<string, string | undefined> }> {
  const table = `faults-${++tables}`;
  await ensureTable(dynamo.db.client, auditTableDefinition(table));
  await drain();
  return {
    table,
    env: {
      KEB_URL: kit.sim.url,
      KEB_TOKEN: "faults-token",
      AUDIT_TABLE: table,
      ALERT_TOPIC_ARN: sns.topicArn,
      ...emulatorEnv({ dynamodb: ddbProxy.proxy.url, sns: snsProxy.proxy.url }),
    },
  };
}

type Handler = (event: unknown, context: unknown) => Promise<RunSummary>;

async function coldStart(env: Record<string, string | undefined>): Promise<Handler> {
  restore();
  restore = withEnv(env);
  vi.resetModules();
  return (await import("../../functions/audit.ts")).handler as Handler;
}

// Requests about snapshot items (sort key `RT#…`; a report part's `PART#…` is not one).
const SNAPSHOT_ITEM = '"S":"RT#';

const scheduled = (k: number) => ({ audit: "failing", scheduledTime: sched(k) });

/** The runtimes the failing audit flags in the simulator's fleet now (honest, complete scan). */
async function flaggedNow(): Promise<Set<string>> {
  const s = await runAudit(
    {
      ports: {
        audits: testAudits({ client: new FleetSource(kit.sim.fleet) }),
        store: new MemoryAuditStore(),
        publisher: new MemoryPublisher(),
      },
    },
    { audit: "failing", dryRun: true },
  );
  return new Set(s.transitions.map((t) => t.instanceID));
}

interface Told {
  kind: string;
  instanceID: string;
  runId: string;
}

/** Each delivered digest's run, and the interrupted run it says it may repeat. */
function runsOf(delivered: Delivered[]): Array<{ runId: string; repeats?: string }> {
  return delivered.map((d) => {
    const chatbot = JSON.parse(JSON.parse(d.Message).https) as {
      metadata: { additionalContext: { runId: string; repeats?: string } };
    };
    const { runId, repeats } = chatbot.metadata.additionalContext;
    return { runId, ...(repeats ? { repeats } : {}) };
  });
}

/** What the delivered digests told: every transition of each delivered run's report. */
async function toldBy(delivered: Delivered[], table: string): Promise<Told[]> {
  const reports = new DynamoReportStore({ client: dynamo.db.client, tableName: table });
  const told: Told[] = [];
  for (const d of delivered) {
    const chatbot = JSON.parse(JSON.parse(d.Message).https) as {
      metadata: { eventType: string; additionalContext: { runId: string } };
    };
    if (chatbot.metadata.eventType !== "fleet-auditor.failing") continue; // a health notice
    const runId = chatbot.metadata.additionalContext.runId;
    const report = await reports.loadReport(runId);
    expect(report, `the report of delivered run ${runId}`).toBeDefined();
    for (const t of report?.transitions ?? []) told.push({ kind: t.kind, instanceID: t.key, runId });
  }
  return told;
}

/**
 * The invariants after a scenario: from `before` (the snapshot's flagged set) to the fleet now,
 * every firing and every resolve told once (twice at most where `atLeastOnce`), nothing else
 * told, and the snapshot equal to the flagged fleet.
 */
async function expectConverged(
  table: string,
  before: ReadonlySet<string>,
  delivered: Delivered[],
  options: { atLeastOnce?: boolean } = {},
): Promise<void> {
  const after = await flaggedNow();
  const told = await toldBy(delivered, table);
  const count = (kind: string, id: string): number =>
    told.filter((t) => t.kind === kind && t.instanceID === id).length;
  const firing = [...after].filter((id) => !before.has(id));
  const resolved = [...before].filter((id) => !after.has(id));
  expect(firing.length + resolved.length, "the scenario changes the fleet").toBeGreaterThan(0);
  for (const id of firing) expectOnce(count("firing", id), `firing ${id}`, options.atLeastOnce);
  for (const id of resolved) expectOnce(count("resolved", id), `resolved ${id}`, options.atLeastOnce);
  // No false resolve, and nothing told that did not happen (a flagged runtime failing anew changes).
  const changed = [...before].filter((id) => after.has(id) && count("changed", id) > 0);
  for (const id of changed) expectOnce(count("changed", id), `changed ${id}`, options.atLeastOnce);
  const expected = new Set([
    ...firing.map((id) => `firing ${id}`),
    ...resolved.map((id) => `resolved ${id}`),
    ...changed.map((id) => `changed ${id}`),
  ]);
  expect(told.map((t) => `${t.kind} ${t.instanceID}`).filter((t) => !expected.has(t))).toEqual([]);
  const snapshot = await new DynamoAuditStore({
    client: dynamo.db.client,
    tableName: table,
  }).loadSnapshot("failing");
  expect(new Set(snapshot.keys())).toEqual(after);
}

function expectOnce(n: number, what: string, atLeastOnce = false): void {
  if (atLeastOnce) {
    expect(n, `${what} told`).toBeGreaterThanOrEqual(1);
    expect(n, `${what} told`).toBeLessThanOrEqual(2);
  } else expect(n, `${what} told exactly once`).toBe(1);
}

/** A first healthy run on a fresh table, then a change in the fleet: the state a fault meets. */
async function established(handler: Handler): Promise<Set<string>> {
  const first = await handler(scheduled(0), fakeContext());
  expect(first).toMatchObject({ status: "completed", complete: true });
  await drain();
  const before = await flaggedNow();
  kit.sim.fleet.mutate({ recover: 3, fail: 3 });
  return before;
}

const throttle = (operation: string, times: number, bodyIncludes?: string): FaultRule => ({
  operation,
  times,
  ...(bodyIncludes ? { bodyIncludes } : {}),
  action: {
    kind: "error",
    status: 400,
    code: operation === "Publish" ? "Throttling" : "ProvisionedThroughputExceededException",
    message: "Rate exceeded",
  },
});

describe("audit function under injected faults", () => {
  it("absorbs transient DynamoDB throttling on reads and writes, and transient UnprocessedItems", async () => {
    const { table, env } = await scenario();
    const handler = await coldStart(env);
    const before = await established(handler);
    ddbProxy.proxy.add(throttle("GetItem", 2), throttle("Query", 2), throttle("PutItem", 2), {
      operation: "BatchWriteItem",
      times: 3,
      action: { kind: "unprocessed" },
    });
    const run = await handler(scheduled(1), fakeContext());
    expect(run).toMatchObject({ status: "completed", complete: true, notified: { failed: 0 } });
    expect(ddbProxy.proxy.seen.filter((op) => op === "BatchWriteItem").length).toBeGreaterThan(3);
    await expectConverged(table, before, await drain());
  });

  it("a snapshot that cannot be read fails the run before anything is told; the retry tells it once", async () => {
    const { table, env } = await scenario();
    const handler = await coldStart(env);
    const before = await established(handler);
    // A new container: a warm one keeps the snapshot it committed and has no need to read it.
    const cold = await coldStart(env);
    ddbProxy.proxy.add(throttle("Query", 50, SNAPSHOT_ITEM));
    await expect(cold(scheduled(1), fakeContext())).rejects.toThrow(/Rate exceeded/);
    expect(await drain()).toEqual([]);
    ddbProxy.proxy.clear();
    const retry = await cold(scheduled(1), fakeContext());
    expect(retry).toMatchObject({ status: "completed", complete: true });
    await expectConverged(table, before, await drain());
  });

  it("persistent UnprocessedItems on the commit: the digest went out, the retry sends it again, nothing is lost", async () => {
    const { table, env } = await scenario();
    const handler = await coldStart(env);
    const before = await established(handler);
    ddbProxy.proxy.add({
      operation: "BatchWriteItem",
      times: 50,
      bodyIncludes: SNAPSHOT_ITEM,
      action: { kind: "unprocessed" },
    });
    await expect(handler(scheduled(1), fakeContext())).rejects.toThrow(/unprocessed/i);
    const first = await drain();
    expect(first).toHaveLength(1);
    ddbProxy.proxy.clear();
    // The scheduler's retry of the same scheduled time: not recorded, so it runs, and re-sends,
    // saying that it may repeat the interrupted run's message.
    const retry = await handler(scheduled(1), fakeContext());
    expect(retry).toMatchObject({ status: "completed", repeats: runsOf(first)[0]?.runId });
    const again = await drain();
    expect(runsOf(again)).toEqual([{ runId: retry.runId, repeats: runsOf(first)[0]?.runId }]);
    expect(await handler(scheduled(2), fakeContext())).toMatchObject({ transitions: [] });
    await expectConverged(table, before, [...first, ...again, ...(await drain())], { atLeastOnce: true });
  });

  it("the table missing fails the run naming the table, and writes nothing anywhere", async () => {
    const { env } = await scenario();
    const handler = await coldStart({ ...env, AUDIT_TABLE: "faults-no-such-table" });
    await expect(handler(scheduled(1), fakeContext())).rejects.toThrow(/faults-no-such-table/);
    expect(await drain()).toEqual([]);
  });

  it("absorbs transient SNS throttling; a publish failing for good is not committed and its retry tells it once", async () => {
    const { table, env } = await scenario();
    const handler = await coldStart(env);
    const before = await established(handler);
    snsProxy.proxy.add(throttle("Publish", 1));
    const absorbed = await handler(scheduled(1), fakeContext());
    expect(absorbed).toMatchObject({ status: "completed", notified: { messages: 1, failed: 0 } });
    const told = await drain();
    await expectConverged(table, before, told);

    const before2 = await flaggedNow();
    kit.sim.fleet.mutate({ recover: 2, fail: 2 });
    snsProxy.proxy.add(throttle("Publish", 50));
    const failed = await handler(scheduled(2), fakeContext());
    expect(failed.notified.failed).toBeGreaterThan(0);
    expect(failed.notified.error).toMatch(/Rate exceeded/);
    expect(failed.writes).toEqual({ snapshot: 0, deleted: 0 });
    expect(await drain()).toEqual([]);
    snsProxy.proxy.clear();
    // Not recorded: the scheduler's retry of the same time runs and tells it.
    const retry = await handler(scheduled(2), fakeContext());
    expect(retry).toMatchObject({ status: "completed", notified: { failed: 0 } });
    expect(await handler(scheduled(2), fakeContext())).toMatchObject({ status: "duplicate" });
    await expectConverged(table, before2, await drain());
  });

  it("the same scheduled event three times at once: one run tells, the others stand back", async () => {
    const { table, env } = await scenario();
    const handler = await coldStart(env);
    const before = await established(handler);
    const runs = await Promise.all([1, 2, 3].map(() => handler(scheduled(1), fakeContext())));
    expect(runs.every((r) => ["completed", "skipped", "duplicate"].includes(r.status))).toBe(true);
    // One run tells; another may only complete after it with nothing left to tell (it read the
    // ledger before the first recorded and took the lease after it was released).
    expect(runs.filter((r) => r.notified.messages > 0)).toHaveLength(1);
    expect(runs.filter((r) => r.status === "completed" && r.transitions.length > 0)).toHaveLength(1);
    await expectConverged(table, before, await drain());
  });

  it("a console run overlapping a scheduled one stands back; the scheduled run tells once", async () => {
    const { table, env } = await scenario();
    const handler = await coldStart(env);
    const before = await established(handler);
    const publishing = gate();
    snsProxy.proxy.add({ operation: "Publish", times: 1, action: publishing.action });
    const scheduledRun = handler(scheduled(1), fakeContext());
    await publishing.held;
    const consoleRun = await handler({ audit: "failing" }, fakeContext());
    expect(consoleRun).toMatchObject({ status: "skipped", scheduledTime: null });
    publishing.release();
    expect(await scheduledRun).toMatchObject({ status: "completed", notified: { failed: 0 } });
    await expectConverged(table, before, await drain());
  });

  it("a run that lost its lease mid-run commits nothing and says so; the next run converges", async () => {
    const { table, env } = await scenario();
    const handler = await coldStart(env);
    const before = await established(handler);
    const publishing = gate();
    snsProxy.proxy.add({ operation: "Publish", times: 1, action: publishing.action });
    const run = handler(scheduled(1), fakeContext());
    await publishing.held;
    // Its lease expired and another run took it over.
    const ddb = dynamo.db.client;
    await ddb.send(
      new PutCommand({
        TableName: table,
        Item: { ...itemKey.lease("failing"), owner: "someone-else", expiresAtMs: Date.now() + HOUR },
      }),
    );
    publishing.release();
    await expect(run).rejects.toThrow(/lease/i);
    const first = await drain();
    expect(first).toHaveLength(1);
    await ddb.send(new DeleteCommand({ TableName: table, Key: itemKey.lease("failing") }));
    expect(await handler(scheduled(2), fakeContext())).toMatchObject({ status: "completed" });
    await expectConverged(table, before, [...first, ...(await drain())], { atLeastOnce: true });
  });

  // Each kill test starts two bundled functions in their own processes: seconds on a quiet
  // machine, ten times that on a loaded one. The timeouts are hang guards, not bars.
  it("killed mid-scan and retried: nothing was told, the retry tells everything once", async () => {
    const { table, env } = await scenario();
    const handler = await coldStart(env);
    const before = await established(handler);
    restore();
    const loading = gate();
    ddbProxy.proxy.add({ operation: "Query", times: 1, bodyIncludes: SNAPSHOT_ITEM, action: loading.action });
    const killed = await invokeInProcess("audit", scheduled(1), env, loading.held);
    expect(killed.signal).toBe("SIGKILL");
    loading.release();
    expect(await drain()).toEqual([]);
    await expireLease(table);
    const retry = await invokeInProcess("audit", scheduled(1), env);
    expect(retry.result).toMatchObject({ status: "completed", complete: true });
    await expectConverged(table, before, await drain());
  }, 90_000);

  it("killed between publish and commit and retried: the digest is sent again, nothing is lost", async () => {
    const { table, env } = await scenario();
    const handler = await coldStart(env);
    const before = await established(handler);
    restore();
    const publishing = gate();
    snsProxy.proxy.add({ operation: "Publish", times: 1, action: publishing.action });
    const killed = await invokeInProcess("audit", scheduled(1), env, publishing.held);
    expect(killed.signal).toBe("SIGKILL");
    publishing.release();
    const first = await drain();
    expect(first).toHaveLength(1);
    await expireLease(table);
    const retry = await invokeInProcess("audit", scheduled(1), env);
    const killedRun = runsOf(first)[0]?.runId;
    expect(retry.result).toMatchObject({ status: "completed", complete: true, repeats: killedRun });
    const again = await drain();
    expect(runsOf(again)).toEqual([{ runId: (retry.result as RunSummary).runId, repeats: killedRun }]);
    await expectConverged(table, before, [...first, ...again], { atLeastOnce: true });
  }, 90_000);
});

/** The lease of a killed run, as it is once its 15 minutes have passed. */
async function expireLease(table: string): Promise<void> {
  const store = new DynamoAuditStore({ client: dynamo.db.client, tableName: table });
  const lease = await store.describeLease("failing");
  expect(lease, "the killed run left its lease").toBeDefined();
  await dynamo.db.client.send(
    new PutCommand({
      TableName: table,
      Item: { ...itemKey.lease("failing"), owner: lease?.owner, expiresAtMs: Date.now() - 1 },
    }),
  );
}
