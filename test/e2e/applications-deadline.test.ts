import { applicationTraffic } from "@fleet-auditor/keb-kubeedge-sim";
import { decodeMessage } from "@fleet-auditor/metaserver";
import { DynamoStatusStore, ensureTable, statusTableDefinition } from "@fleet-auditor/store";
import type { Context, SQSBatchResponse, SQSEvent } from "aws-lambda";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useDynamo } from "../helpers/dynamo.ts";
import { gate, useFaultProxy } from "../helpers/fault-proxy.ts";
import { emulatorEnv, fakeContext, withEnv } from "../helpers/lambda.ts";
import { sqsEvent } from "../helpers/sqs-event.ts";

// The queue function against its Lambda deadline: the real handler on dynalite (behind a fault
// proxy that can hold DynamoDB's answers), with a Lambda context whose remaining time is short.
// It takes no new write once the deadline (remaining time minus a margin) has come, and hands
// back every record it did not see written as a batch item failure: never killed mid-batch.

const dynamo = useDynamo([]);
const ddbProxy = useFaultProxy(() => dynamo.db.endpoint);
let restore: () => void = () => undefined;
const releases: Array<() => void> = [];
let tables = 0;
afterEach(() => {
  for (const release of releases.splice(0)) release();
  restore();
  ddbProxy.proxy.clear();
});

type Ingest = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;

async function coldStart(): Promise<{ table: string; handler: Ingest }> {
  const table = `apps-deadline-${++tables}`;
  await ensureTable(dynamo.db.client, statusTableDefinition(table));
  restore();
  restore = withEnv({ STATUS_TABLE: table, ...emulatorEnv({ dynamodb: ddbProxy.proxy.url }) });
  vi.resetModules();
  return { table, handler: (await import("../../functions/applications.ts")).handler as Ingest };
}

/** A Lambda context with `ms` left before the function's timeout. */
const leaving = (ms: number): Context => ({
  ...fakeContext("fleet-auditor-applications"),
  getRemainingTimeInMillis: () => ms,
});

// Ten requests about ten different Applications: ten writes, one per record.
const REQUESTS = applicationTraffic({ applications: 10, nodes: 3, seed: 31, distinct: true }).filter(
  (_, i) => i % 2 === 0,
);
const idOf = (body: string): string => decodeMessage(body).applications[0]?.id as string;

async function rowIds(table: string): Promise<string[]> {
  const store = new DynamoStatusStore({ client: dynamo.db.client, tableName: table });
  return (await store.query({ limit: 1_000 }, new Date())).map((r) => r.id).sort();
}

const writes = (): number =>
  ddbProxy.proxy.seen.filter((op) => op === "UpdateItem" || op === "PutItem").length;

describe("the queue function at its deadline", () => {
  it("hands every record back, writing nothing, when the batch arrives with less time left than the margin", async () => {
    const { table, handler } = await coldStart();
    const event = sqsEvent([...REQUESTS.slice(0, 3), "not json at all"]);
    const before = writes();
    const out = await handler(event, leaving(1_000));
    expect(out.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(event.Records.map((r) => r.messageId));
    // Not even the quarantine of the unparseable body: that is a write too.
    expect(writes()).toBe(before);
    expect(await rowIds(table)).toEqual([]);
  });

  it("takes no new write once the deadline has come, and hands back every record it did not see written", async () => {
    const { table, handler } = await coldStart();
    // DynamoDB takes the first writes but answers none of them before the deadline.
    const answers = gate();
    releases.push(answers.release);
    ddbProxy.proxy.add({ operation: "UpdateItem", times: 100, action: answers.action });
    const event = sqsEvent(REQUESTS);
    const before = writes();
    // The margin (5 s) and 1.5 s to work in.
    const out = await handler(event, leaving(6_500));
    const handedBack = out.batchItemFailures.map((f) => f.itemIdentifier);
    // Eight writes at a time: those in flight at the deadline are abandoned, the rest never sent.
    const sent = writes() - before;
    expect(sent).toBe(8);
    expect(handedBack).toEqual(event.Records.map((r) => r.messageId));
    answers.release();
    const unsent = REQUESTS.slice(sent).map(idOf);
    expect(unsent.length).toBeGreaterThan(0);
    const written = await rowIds(table);
    for (const id of unsent) expect(written).not.toContain(id);

    // SQS hands the records back after their visibility timeout; with time, they all land.
    ddbProxy.proxy.clear();
    const again = await handler(sqsEvent(REQUESTS), leaving(60_000));
    expect(again.batchItemFailures).toEqual([]);
    expect(await rowIds(table)).toEqual(REQUESTS.map(idOf).sort());
  });
});
