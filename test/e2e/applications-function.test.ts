import { readFileSync } from "node:fs";
import type { QuarantineItem, StatusRow } from "@fleet-auditor/metaserver";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useDynamoStatus } from "../helpers/dynamo.ts";
import { fakeContext, withEnv } from "../helpers/lambda.ts";
import { sqsEvent } from "../helpers/sqs-event.ts";

const env = useDynamoStatus("fn-status");
let restore: () => void = () => undefined;
afterEach(() => restore());
const raw = (name: string): string =>
  readFileSync(new URL(`../fixtures/kubeedge/${name}`, import.meta.url), "utf8");

async function load<T>(module: string): Promise<T> {
  restore = withEnv({
    STATUS_TABLE: "fn-status",
    AWS_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: "test",
    AWS_SECRET_ACCESS_KEY: "test",
    AWS_ENDPOINT_URL_DYNAMODB: env.db.endpoint,
    POWERTOOLS_LOG_LEVEL: "ERROR",
    POWERTOOLS_METRICS_DISABLED: "true",
  });
  vi.resetModules();
  return (await import(module)).handler as T;
}
type Ingest = (
  event: unknown,
  ctx: unknown,
) => Promise<{ batchItemFailures: Array<{ itemIdentifier: string }> }>;
type Query = (event: unknown, ctx: unknown) => Promise<StatusRow[] | QuarantineItem[]>;

describe("functions/applications.ts (SQS)", () => {
  it("applies a request and its response, quarantines what cannot be parsed, and acknowledges both", async () => {
    const handler = await load<Ingest>("../../functions/applications.ts");
    const sns = JSON.stringify({
      Type: "Notification",
      MessageId: "x",
      TopicArn: "arn:aws:sns:us-east-1:123456789012:t",
      Message: raw("response-get-rejected.json"),
    });
    const event = sqsEvent([
      raw("request-list.json"),
      raw("response-list-approved.json"),
      sns,
      "not json at all",
      '{"header":{}}',
    ]);
    const result = await handler(event, fakeContext("applications"));
    expect(result).toEqual({ batchItemFailures: [] });
    const query = await load<Query>("../../functions/application-status.ts");
    const rows = (await query({}, fakeContext("status"))) as StatusRow[];
    const byKey = Object.fromEntries(rows.map((r) => [r.key, r]));
    expect(byKey["/core/v1/pods/default/null"]).toMatchObject({
      status: "Approved",
      kind: "response",
      node: "edge-node-1",
      verb: "list",
    });
    expect(byKey["/core/v1/configmaps/default/app-config"]).toMatchObject({
      status: "Rejected",
      error: { code: 404, reason: "NotFound" },
    });
    // This event's records alone: the table is the file's, and other tests quarantine too.
    const ours = new Set(event.Records.map((r) => r.messageId));
    const quarantined = (
      (await query({ quarantine: true }, fakeContext("status"))) as QuarantineItem[]
    ).filter((q) => ours.has(q.sqsMessageId));
    expect(quarantined.map((q) => q.code).sort()).toEqual(["MS_ENVELOPE", "MS_NOT_JSON"]);
    expect(quarantined.find((q) => q.code === "MS_NOT_JSON")).toMatchObject({
      body: "not json at all",
      sqsMessageId: event.Records[3]?.messageId,
    });
  });

  it("refuses an event that is not an SQS event, naming the problem", async () => {
    const handler = await load<Ingest>("../../functions/applications.ts");
    for (const event of [null, {}, [], { Records: "x" }]) {
      await expect(handler(event, fakeContext())).rejects.toThrow(/invalid input: (\(input\)|Records)/);
    }
  });

  it("quarantines a record without a string body, and names a record without messageId by its body", async () => {
    const handler = await load<Ingest>("../../functions/applications.ts");
    const event = sqsEvent([raw("request-list.json"), "placeholder"]) as unknown as {
      Records: Array<Record<string, unknown>>;
    };
    (event.Records[1] as Record<string, unknown>).body = { not: "a string" };
    const noId = { ...(sqsEvent(["still not json"]).Records[0] as unknown as Record<string, unknown>) };
    delete noId.messageId;
    event.Records.push(noId);
    const result = await handler(event, fakeContext());
    expect(result.batchItemFailures).toEqual([]);
    const query = await load<Query>("../../functions/application-status.ts");
    const quarantined = (await query({ quarantine: true }, fakeContext("status"))) as QuarantineItem[];
    const byId = new Map(quarantined.map((q) => [q.sqsMessageId, q]));
    expect(byId.get(event.Records[1]?.messageId as string)).toMatchObject({
      code: "MS_RECORD",
      reason: "the SQS record has no string body (got object)",
    });
    const unnamed = quarantined.find((q) => q.body === "still not json");
    expect(unnamed?.sqsMessageId).toMatch(/^no-message-id-[0-9a-f]{16}$/);
    expect(quarantined.some((q) => q.sqsMessageId === "undefined" || q.sqsMessageId === "")).toBe(false);
  });

  it("quarantines a message whose header time is far after the SentTimestamp SQS gave it", async () => {
    const handler = await load<Ingest>("../../functions/applications.ts");
    const far = JSON.parse(raw("request-list.json"));
    far.header = { msg_id: "far-future-1", timestamp: 9_000_000_000_000_000 };
    const event = sqsEvent([JSON.stringify(far)]);
    expect(await handler(event, fakeContext("applications"))).toEqual({ batchItemFailures: [] });
    const query = await load<Query>("../../functions/application-status.ts");
    const quarantined = (await query({ quarantine: true }, fakeContext("status"))) as QuarantineItem[];
    expect(quarantined.find((q) => q.sqsMessageId === event.Records[0]?.messageId)).toMatchObject({
      code: "MS_FUTURE_TIMESTAMP",
    });
  });

  it("answers console queries by node, status and time, and a bad query with its problems, naming the field", async () => {
    // Its own row (the first test writes the same one: one row either way, whichever runs first).
    const ingest = await load<Ingest>("../../functions/applications.ts");
    expect(await ingest(sqsEvent([raw("response-get-rejected.json")]), fakeContext())).toEqual({
      batchItemFailures: [],
    });
    const query = await load<Query>("../../functions/application-status.ts");
    const rejected = (await query(
      { node: "edge-node-1", status: "Rejected", since: "2020-01-01T00:00:00Z" },
      fakeContext("status"),
    )) as StatusRow[];
    expect(rejected.map((r) => r.status)).toEqual(["Rejected"]);
    // Answered, not thrown: a thrown error is a Lambda error, which pages Ops.
    await expect(query({ node: "edge-node-1", colour: "red" }, fakeContext("status"))).resolves.toMatchObject(
      {
        error: { code: "RUN_INPUT", problems: [expect.stringMatching(/colour/)] },
      },
    );
  });

  it("fails at cold start without STATUS_TABLE", async () => {
    restore = withEnv({ STATUS_TABLE: undefined });
    vi.resetModules();
    await expect(import("../../functions/applications.ts")).rejects.toThrow(/STATUS_TABLE: is required/);
  });
});
