import { snsAlertPublisher } from "@fleet-auditor/notify";
import { healthNotice, renderDigests } from "@fleet-auditor/render";
import { beforeAll, describe, expect, it } from "vitest";
import { type Delivered, useSns } from "../../helpers/sns.ts";
import { ctx, t } from "../../helpers/transitions.ts";

// Routes by what a message is (its `format`), on a real SNS API: a digest to the alert topic, an
// incident message to the incidents topic, a notice about the auditor's health to both.

const sns = useSns();
let incidentsArn: string;
let alerts: () => Promise<Delivered[]>;
let chat: () => Promise<Delivered[]>;

beforeAll(async () => {
  incidentsArn = await sns.topic("routed-incidents");
  alerts = await sns.subscriber("routed-alerts");
  chat = await sns.subscriber("routed-chat", undefined, incidentsArn);
});

describe("routing by message format", () => {
  it("sends digests to alerts, incident messages to incidents and health notices to both", async () => {
    const publisher = snsAlertPublisher(sns.sns, { alerts: sns.topicArn, incidents: incidentsArn });
    const [digest] = renderDigests(ctx, [t(1)]);
    const [incident] = renderDigests(
      { ...ctx, incident: { key: "inc-1", status: "firing", startsAt: ctx.at } },
      [t(2)],
      1,
    );
    const health = healthNotice(
      ctx,
      "degraded",
      { badRuns: 3, badSince: ctx.at, degradedNotified: false, lastReason: "KEB 503" },
      { badRuns: 2, badSince: ctx.at, degradedNotified: false, lastReason: "KEB 503" },
    );
    const outcomes = await publisher.publishBatch?.(
      [digest, incident, health].filter((m) => m !== undefined),
    );
    expect(outcomes?.every((o) => o.ok)).toBe(true);
    const format = (d: Delivered) => d.MessageAttributes?.format?.Value;
    expect((await alerts()).map(format).sort()).toEqual(["digest", "health"]);
    expect((await chat()).map(format).sort()).toEqual(["health", "incident"]);
  });
});
