import { applicationTraffic } from "@fleet-auditor/keb-kubeedge-sim";
import type { StatusRow } from "@fleet-auditor/metaserver";
import { DynamoStatusStore, ensureTable, statusTableDefinition } from "@fleet-auditor/store";
import type { SQSBatchResponse, SQSEvent } from "aws-lambda";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useDynamo } from "../helpers/dynamo.ts";
import { type FaultRule, gate, useFaultProxy } from "../helpers/fault-proxy.ts";
import { invokeInProcess } from "../helpers/function-process.ts";
import { fakeContext, withEnv } from "../helpers/lambda.ts";
import { sqsEvent } from "../helpers/sqs-event.ts";

// Fault matrix for the queue function: the real handler on dynalite behind a proxy
// that injects faults on the wire. Invariants: a poison record is quarantined with its reason and
// never fails its batch; a record whose write failed for a transient reason is reported (SQS
// redelivers it), never dropped; after redelivery the table equals the one a fault-free delivery
// of the same messages gives.

const dynamo = useDynamo([]);
const ddbProxy = useFaultProxy(() => dynamo.db.endpoint);
let restore: () => void = () => undefined;
let tables = 0;
afterEach(() => {
  restore();
  ddbProxy.proxy.clear();
});

type Ingest = (event: SQSEvent, context: unknown) => Promise<SQSBatchResponse>;

/** A fresh status table and a function cold-started on it, through the proxy or directly. */
async function scenario(options: { direct?: boolean } = {}) {
  const table = `apps-faults-${++tables}`;
  await ensureTable(dynamo.db.client, statusTableDefinition(table));
  const env = {
    STATUS_TABLE: table,
    AWS_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: "test",
    AWS_SECRET_ACCESS_KEY: "test",
    AWS_ENDPOINT_URL_DYNAMODB: options.direct ? dynamo.db.endpoint : ddbProxy.proxy.url,
    POWERTOOLS_LOG_LEVEL: "CRITICAL",
    POWERTOOLS_METRICS_DISABLED: "true",
  };
  restore();
  restore = withEnv(env);
  vi.resetModules();
  const handler = (await import("../../functions/applications.ts")).handler as Ingest;
  return { table, env, handler };
}

/** Every row of a table, without the times of the writes themselves. */
async function rows(table: string): Promise<Array<Omit<StatusRow, "firstSeenAt" | "updatedAt">>> {
  const all = await new DynamoStatusStore({ client: dynamo.db.client, tableName: table }).query(
    { limit: 100_000 },
    new Date(),
  );
  return all
    .map(({ firstSeenAt: _f, updatedAt: _u, ...row }) => row)
    .sort((a, b) => a.id.localeCompare(b.id));
}

/** The table a fault-free delivery of these bodies gives. */
async function reference(bodies: readonly string[]) {
  const { table, handler } = await scenario({ direct: true });
  const out = await handler(sqsEvent(bodies), fakeContext("fleet-auditor-applications"));
  expect(out.batchItemFailures).toEqual([]);
  return rows(table);
}

const TRAFFIC = applicationTraffic({ applications: 5, nodes: 2, seed: 77, rejectShare: 0.4 });

const throttleUpdates = (times: number): FaultRule => ({
  operation: "UpdateItem",
  times,
  action: {
    kind: "error",
    status: 400,
    code: "ProvisionedThroughputExceededException",
    message: "Rate exceeded",
  },
});

describe("applications function under injected faults", () => {
  it("a poison record among good ones is quarantined with its reason; the good ones apply through transient throttling", async () => {
    const expected = await reference(TRAFFIC);
    const { table, handler } = await scenario();
    ddbProxy.proxy.add(throttleUpdates(2));
    const bodies = [...TRAFFIC.slice(0, 4), '{"not":"a metaserver message"', ...TRAFFIC.slice(4)];
    const event = sqsEvent(bodies);
    const out = await handler(event, fakeContext("fleet-auditor-applications"));
    expect(out.batchItemFailures).toEqual([]);
    expect(await rows(table)).toEqual(expected);
    const quarantined = await new DynamoStatusStore({
      client: dynamo.db.client,
      tableName: table,
    }).quarantined();
    expect(quarantined).toHaveLength(1);
    expect(quarantined[0]).toMatchObject({ sqsMessageId: event.Records[4]?.messageId });
    expect(quarantined[0]?.reason).toMatch(/JSON/);
  });

  it("every record of a batch failing is reported for redelivery, none quarantined; redelivery converges", async () => {
    const expected = await reference(TRAFFIC);
    const { table, handler } = await scenario();
    ddbProxy.proxy.add(throttleUpdates(1_000));
    const event = sqsEvent(TRAFFIC);
    const out = await handler(event, fakeContext("fleet-auditor-applications"));
    expect(out.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(
      event.Records.map((r) => r.messageId).sort(),
    );
    expect(await new DynamoStatusStore({ client: dynamo.db.client, tableName: table }).quarantined()).toEqual(
      [],
    );
    ddbProxy.proxy.clear();
    const failed = new Set(out.batchItemFailures.map((f) => f.itemIdentifier));
    const again = await handler(
      { Records: event.Records.filter((r) => failed.has(r.messageId)) },
      fakeContext("fleet-auditor-applications"),
    );
    expect(again.batchItemFailures).toEqual([]);
    expect(await rows(table)).toEqual(expected);
  });

  it("the table missing reports every record for redelivery, naming the table in the log", async () => {
    const { env } = await scenario();
    restore();
    const child = await invokeInProcess("applications", sqsEvent(TRAFFIC.slice(0, 3)), {
      ...env,
      STATUS_TABLE: "apps-no-such-table",
      POWERTOOLS_LOG_LEVEL: "WARN",
    });
    const out = child.result as SQSBatchResponse;
    expect(out.batchItemFailures).toHaveLength(3);
    expect(child.logs).toMatch(/DynamoDB table apps-no-such-table does not exist/);
  }, 30_000);

  it("killed mid-batch after some writes landed: the redelivered batch converges to the same table", async () => {
    const expected = await reference(TRAFFIC);
    const { table, env } = await scenario();
    restore();
    const writing = gate();
    // The third write reaches DynamoDB; the function dies before it hears back.
    ddbProxy.proxy.add(
      { operation: "UpdateItem", times: 2, action: { kind: "hold", release: Promise.resolve() } },
      { operation: "UpdateItem", times: 1, action: writing.action },
    );
    const event = sqsEvent(TRAFFIC);
    const killed = await invokeInProcess("applications", event, env, writing.held);
    expect(killed.signal).toBe("SIGKILL");
    writing.release();
    expect((await rows(table)).length).toBeGreaterThan(0);
    // SQS redelivers the whole batch once its visibility timeout passes.
    const retry = await invokeInProcess("applications", event, env);
    expect(retry.result).toEqual({ batchItemFailures: [] });
    expect(await rows(table)).toEqual(expected);
  }, 30_000);
});
