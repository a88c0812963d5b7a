import { snsAlertPublisher } from "@fleet-auditor/notify";
import { healthNotice, renderDigests, renderPagerMessages } from "@fleet-auditor/render";
import { beforeAll, describe, expect, it } from "vitest";
import { type Delivered, useSns } from "../../helpers/sns.ts";
import { ctx, t } from "../../helpers/transitions.ts";

// Routes by what a message is (its `format`, or its own `topics`), on a real SNS API: a digest to
// the alert topic, an incident message to the incidents topic, the pager's to the critical topic,
// a notice about the auditor's health to every one.

const sns = useSns();
let incidentsArn: string;
let alerts: () => Promise<Delivered[]>;
let chat: () => Promise<Delivered[]>;
let criticalArn: string;
let pager: () => Promise<Delivered[]>;

beforeAll(async () => {
  incidentsArn = await sns.topic("routed-incidents");
  alerts = await sns.subscriber("routed-alerts");
  chat = await sns.subscriber("routed-chat", undefined, incidentsArn);
  criticalArn = await sns.topic("routed-critical");
  pager = await sns.subscriber("routed-pager", undefined, criticalArn);
});

describe("routing by message format", () => {
  it("sends digests to alerts, incident messages to incidents, the pager's to critical and health to each", async () => {
    const publisher = snsAlertPublisher(sns.sns, {
      alerts: sns.topicArn,
      incidents: incidentsArn,
      critical: criticalArn,
    });
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
    const [paging] = renderPagerMessages(ctx, [
      {
        ...t(3),
        incident: { key: "inc-3", startsAt: ctx.at, openedAt: ctx.at, firing: 1, pager: "trigger" },
      },
    ]);
    const outcomes = await publisher.publishBatch?.(
      [digest, incident, health, paging].filter((m) => m !== undefined),
    );
    expect(outcomes?.map((o) => o.ok)).toEqual([true, true, true, true]);
    const format = (d: Delivered) => d.MessageAttributes?.format?.Value;
    expect((await alerts()).map(format).sort()).toEqual(["digest", "health"]);
    expect((await chat()).map(format).sort()).toEqual(["health", "incident"]);
    const paged = await pager();
    expect(paged.map(format).sort()).toEqual(["health", "incident"]);
    expect(paged.map((d) => d.Subject)).toContain(paging?.subject);

    // Without a critical topic, the pager's message has nowhere to go: refused, never dropped.
    const two = snsAlertPublisher(sns.sns, { alerts: sns.topicArn, incidents: incidentsArn });
    const [lost] = (await two.publishBatch?.([paging].filter((m) => m !== undefined))) ?? [];
    expect(lost).toMatchObject({ ok: false, error: expect.stringMatching(/no topic/) });
    await expect(two.publish(paging as NonNullable<typeof paging>)).rejects.toThrow(/no topic/);
  });
});
