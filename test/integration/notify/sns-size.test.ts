import { SNSClient } from "@aws-sdk/client-sns";
import type { DigestContext, DigestMessage, Transition } from "@fleet-auditor/audit";
import { publishAll, SnsAlertPublisher, snsAlertPublisher } from "@fleet-auditor/notify";
import { SNS_MESSAGE_LIMIT } from "@fleet-auditor/notify/sns-envelope";
import { renderDigests } from "@fleet-auditor/render";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { useFaultProxy } from "../../helpers/fault-proxy.ts";
import { type Delivered, useSns } from "../../helpers/sns.ts";
import { ctx, t } from "../../helpers/transitions.ts";

// Digests through fauxqs behind SNS's rules (`sns-stand-in.ts`): a mass recovery fits the limit
// as AWS counts it, and a digest SNS refuses as too long anyway goes out in its short form,
// to the alert topic and the Critical topic alike, instead of failing every run.

const sns = useSns();
const proxy = useFaultProxy(() => `http://127.0.0.1:${sns.server.port}`);
let client: SNSClient;
let alerts: () => Promise<Delivered[]>;
let pager: () => Promise<Delivered[]>;
let criticalArn: string;

const long: DigestContext = {
  ...ctx,
  landscape: "l".repeat(40),
  runId: `run-${"7".repeat(96)}`,
  report: { stored: true, command: `fleet-auditor runs show run-${"7".repeat(96)}` },
};
const recovery = (n: number): Transition[] => Array.from({ length: n }, (_, i) => t(i, "resolved"));
const tooLong = {
  kind: "error",
  status: 400,
  code: "InvalidParameter",
  message: "Invalid parameter: Message too long",
} as const;

beforeAll(async () => {
  client = new SNSClient({
    endpoint: proxy.proxy.url,
    region: "us-east-1",
    credentials: { accessKeyId: "test", secretAccessKey: "test" },
  });
  criticalArn = await sns.topic("critical");
  alerts = await sns.subscriber("size-alerts");
  pager = await sns.subscriber("size-pager", undefined, criticalArn);
});
afterEach(() => proxy.proxy.clear());
afterAll(() => client.destroy());

describe("digest sizes on SNS", () => {
  it("publishes a mass recovery of 3,000 runtimes, with a long landscape and run ID, within SNS's limit", async () => {
    const [digest] = renderDigests(long, recovery(3_000)) as [DigestMessage];
    const published = await new SnsAlertPublisher({ client, topicArn: sns.topicArn }).publish(digest);
    expect(published.shortened).toBeUndefined();
    const [sent] = sns.standIn.accepted.slice(-1);
    expect(sent?.entry.Subject).toBe(digest.subject);
    expect(sent?.bytes).toBeLessThanOrEqual(SNS_MESSAGE_LIMIT - 1024);
    const delivered = await alerts();
    expect(delivered.map((d) => d.Subject)).toEqual([digest.subject]);
  });

  it("sends the short form of a digest SNS refuses as too long, and says it was shortened", async () => {
    const [digest] = renderDigests(long, recovery(3_000)) as [DigestMessage];
    proxy.proxy.add({ operation: "Publish", times: 1, action: tooLong });
    const published = await new SnsAlertPublisher({ client, topicArn: sns.topicArn }).publish(digest);
    expect(published).toMatchObject({ shortened: true });
    const [delivered] = await alerts();
    expect(delivered?.Subject).toBe(digest.short?.subject);
    const email = (JSON.parse(delivered?.Message ?? "{}") as { email: string }).email;
    expect(email).toContain("names none of the 3000 transitions");
    expect(email).toContain(long.report.command);
  });

  it("sends a batch refused as too long as a whole one message at a time", async () => {
    const digests = [1, 2, 3].map((i) => renderDigests(ctx, [t(i)], i)[0] as DigestMessage);
    proxy.proxy.add({
      operation: "PublishBatch",
      times: 1,
      action: {
        kind: "error",
        status: 400,
        code: "BatchRequestTooLong",
        message: "The length of all the messages put together is more than the limit.",
      },
    });
    const outcomes = await new SnsAlertPublisher({ client, topicArn: sns.topicArn }).publishBatch(digests);
    expect(outcomes.map((o) => o.ok && !("shortened" in o))).toEqual([true, true, true]);
    expect((await alerts()).map((d) => d.Subject).sort()).toEqual(digests.map((d) => d.subject).sort());
  });

  it("counts a message sent to two topics as shortened when only one copy was refused as too long", async () => {
    const [rendered] = renderDigests(ctx, [t(1), t(2)]) as [DigestMessage];
    const both = ["alerts", "critical"] as const;
    const digest: DigestMessage = {
      ...rendered,
      topics: both,
      ...(rendered.short ? { short: { ...rendered.short, topics: both } } : {}),
    };
    proxy.proxy.add({
      operation: "Publish",
      times: 1,
      bodyIncludes: `TopicArn=${encodeURIComponent(criticalArn)}`,
      action: tooLong,
    });
    const publisher = snsAlertPublisher(client, { alerts: sns.topicArn, critical: criticalArn });
    expect(await publisher.publish(digest)).toMatchObject({ shortened: true });
    expect((await alerts()).map((d) => d.Subject)).toEqual([digest.subject]);
    expect((await pager()).map((d) => d.Subject)).toEqual([digest.short?.subject]);

    // The same through PublishBatch: the outcome of the message says shortened.
    const two = [3, 4].map((i) => ({ ...(renderDigests(ctx, [t(i)], i)[0] as DigestMessage), topics: both }));
    proxy.proxy.add({
      operation: "PublishBatch",
      times: 1,
      bodyIncludes: `TopicArn=${encodeURIComponent(criticalArn)}`,
      action: { kind: "error", status: 400, code: "BatchRequestTooLong", message: "too long" },
    });
    proxy.proxy.add({
      operation: "Publish",
      times: 1,
      bodyIncludes: `TopicArn=${encodeURIComponent(criticalArn)}`,
      action: tooLong,
    });
    const outcomes = await publishAll(publisher, two);
    expect(outcomes.map((o) => o.ok && o.shortened === true)).toEqual([true, false]);
    expect(await alerts()).toHaveLength(2);
    expect((await pager()).map((d) => d.Subject).sort()).toEqual(
      [two[0]?.short?.subject, two[1]?.subject].sort(),
    );
  });
});
