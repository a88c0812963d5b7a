import type { RunSummary } from "@fleet-auditor/audit";
import { TestV1Schema } from "@fleet-auditor/render";
import type { NotifyTestResult } from "@fleet-auditor/use-cases";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { useDynamo } from "../helpers/dynamo.ts";
import { everythingStored } from "../helpers/everything-stored.ts";
import { useFaultProxy } from "../helpers/fault-proxy.ts";
import { useKebSimulator } from "../helpers/keb.ts";
import { emulatorEnv, fakeContext, withEnv } from "../helpers/lambda.ts";
import { type Delivered, useSns } from "../helpers/sns.ts";

// `{ "notifyTest": … }` to the audit function: a test message through each topic of the stage,
// published to real SNS topics (fauxqs behind SNS's rules) that SQS queues subscribe to, as
// e-mail, Chatbot and the pager subscribe to the deployed ones.

const kit = useKebSimulator({ fleet: { size: 60, seed: 7, flagged: 6 } });
const dynamo = useDynamo(["notify-test"]);
const sns = useSns();
const snsProxy = useFaultProxy(() => `http://127.0.0.1:${sns.server.port}`);
const topics = { alerts: "", incidents: "", critical: "" };
const queues = {} as Record<keyof typeof topics, () => Promise<Delivered[]>>;
let restore: () => void = () => undefined;

beforeAll(async () => {
  topics.alerts = sns.topicArn;
  topics.incidents = await sns.topic("test-incidents");
  topics.critical = await sns.topic("test-critical");
  for (const [name, arn] of Object.entries(topics))
    queues[name as keyof typeof topics] = await sns.subscriber(`test-${name}-q`, undefined, arn);
});
afterEach(() => {
  restore();
  snsProxy.proxy.clear();
});

type Handler = (event: unknown, context: unknown) => Promise<NotifyTestResult | RunSummary>;
async function coldStart(stage: Partial<typeof topics> = topics): Promise<Handler> {
  restore = withEnv({
    KEB_URL: kit.sim.url,
    KEB_TOKEN: "notify-token",
    AUDIT_TABLE: "notify-test",
    LANDSCAPE: "e2e",
    ALERT_TOPIC_ARN: stage.alerts,
    INCIDENT_TOPIC_ARN: stage.incidents,
    CRITICAL_TOPIC_ARN: stage.critical,
    ...emulatorEnv({ dynamodb: dynamo.db.endpoint, sns: snsProxy.proxy.url }),
  });
  vi.resetModules();
  return (await import("../../functions/audit.ts")).handler as Handler;
}

/** What each queue holds now, drained: the test's structured message, topic by topic. */
async function received(): Promise<
  Record<string, Array<{ subject: string; format?: string; topic: string }>>
> {
  const out: Record<string, Array<{ subject: string; format?: string; topic: string }>> = {};
  for (const [name, drain] of Object.entries(queues)) {
    out[name] = (await drain()).map((d) => {
      // fauxqs hands SQS the whole JSON document; SNS gives an SQS subscriber its `default`.
      const doc = TestV1Schema.parse(JSON.parse((JSON.parse(d.Message) as { default: string }).default));
      return { subject: d.Subject, format: d.MessageAttributes?.format?.Value, topic: doc.topic };
    });
  }
  return out;
}

describe("the audit function's notifyTest event", () => {
  it("sends each topic exactly its own test message, and changes no state", async () => {
    const handler = await coldStart();
    // A stage with state: a run's snapshot, ledger, report and health, and its queues drained.
    const run = (await handler({ audit: "failing" }, fakeContext())) as RunSummary;
    expect(run.notified.messages).toBeGreaterThan(0);
    for (const drain of Object.values(queues)) await drain();
    const before = await everythingStored(dynamo.db.client, ["notify-test"]);
    expect(before).toContain("RUN#failing");

    const result = (await handler({ notifyTest: {} }, fakeContext())) as NotifyTestResult;
    expect(result).toMatchObject({ sender: "console", testId: expect.any(String) });
    expect(result.topics).toEqual(
      (["alerts", "incidents", "critical"] as const).map((topic) => ({
        topic,
        status: "published",
        messageId: expect.any(String),
        subject: `[fleet-auditor] [TEST] [e2e] ${topic} topic: test message, nothing is wrong`,
        channels: expect.any(String),
      })),
    );
    const got = await received();
    for (const topic of ["alerts", "incidents", "critical"])
      expect(got[topic]).toEqual([
        {
          subject: `[fleet-auditor] [TEST] [e2e] ${topic} topic: test message, nothing is wrong`,
          format: "test",
          topic,
        },
      ]);
    expect(await everythingStored(dynamo.db.client, ["notify-test"])).toBe(before);
  });

  it("tests the one topic named, and says which topics the stage lacks instead of failing the others", async () => {
    const handler = await coldStart({ alerts: topics.alerts, incidents: topics.incidents });
    const one = (await handler({ notifyTest: { topic: "incidents" } }, fakeContext())) as NotifyTestResult;
    expect(one.topics).toEqual([expect.objectContaining({ topic: "incidents", status: "published" })]);
    expect((await received()).incidents).toHaveLength(1);

    const all = (await handler({ notifyTest: {} }, fakeContext())) as NotifyTestResult;
    expect(all.topics.map((t) => [t.topic, t.status])).toEqual([
      ["alerts", "published"],
      ["incidents", "published"],
      ["critical", "not-configured"],
    ]);
    expect(Object.values(await received()).map((m) => m.length)).toEqual([1, 1, 0]);
  });

  it("reports the topic that refused its message with SNS's error, and still sends the others", async () => {
    const handler = await coldStart();
    snsProxy.proxy.add({
      operation: "Publish",
      times: 1,
      bodyIncludes: `TopicArn=${encodeURIComponent(topics.critical)}`,
      action: {
        kind: "error",
        status: 403,
        code: "AuthorizationError",
        message: "not authorized to publish",
      },
    });
    const result = (await handler({ notifyTest: {} }, fakeContext())) as NotifyTestResult;
    expect(result.topics.map((t) => t.status)).toEqual(["published", "published", "refused"]);
    expect(result.topics[2]).toMatchObject({ error: expect.stringContaining("not authorized to publish") });
    expect(Object.values(await received()).map((m) => m.length)).toEqual([1, 1, 0]);
  });

  it("refuses a mistyped event by name and sends nothing", async () => {
    const handler = await coldStart();
    await expect(handler({ notifyTest: { topik: "critical" } }, fakeContext())).rejects.toThrow(
      /invalid input: notifyTest: Unrecognized key: "topik"/,
    );
    await expect(handler({ notifyTest: { topic: "pager" } }, fakeContext())).rejects.toThrow(
      /invalid input: notifyTest.topic: Invalid option: expected one of "alerts"\|"incidents"\|"critical"/,
    );
    await expect(handler({ notifyTest: {}, audit: "failing" }, fakeContext())).rejects.toThrow(
      /invalid input: \(input\): Unrecognized key: "audit"/,
    );
    expect(Object.values(await received()).flat()).toEqual([]);
  });
});
