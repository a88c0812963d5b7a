import type { DigestMessage } from "@fleet-auditor/audit";
import { createHttpAgent } from "@fleet-auditor/http/agent";
import { PagerDutyEvents, SlackBot, SlackWebhook } from "@fleet-auditor/notify";
import { testNotice } from "@fleet-auditor/render";
import { DynamoMessageOrder, DynamoSlackThreads } from "@fleet-auditor/store";
import {
  type DeliveredMessage,
  deliverToPager,
  deliverToSlack,
  type MessageOrder,
  OrderBusyError,
  type RunLogger,
} from "@fleet-auditor/use-cases";
import { beforeEach, describe, expect, it } from "vitest";
import { useDynamo } from "../../helpers/dynamo.ts";
import { PAGERDUTY_ROUTING_KEY, useFakePagerDuty } from "../../helpers/fake-pagerduty.ts";
import { useFakeSlack } from "../../helpers/fake-slack.ts";
import { useFakeSlackApi } from "../../helpers/fake-slack-api.ts";
import { failing, Landscape } from "../../helpers/incident-landscape.ts";
import { healthText, incidentText } from "../../helpers/pager-messages.ts";
import { forLambda } from "../../helpers/sns-event.ts";
import { t } from "../../helpers/transitions.ts";

// The Slack and pager use cases keep each key's messages in order, against dynalite (each key's
// last applied place) and the PagerDuty and Slack stand-ins: a message older than the last one
// applied under its key is dropped, a retry of one already applied sends nothing twice, and two
// messages of one key delivered at once reach the receiver one after the other.

const pd = useFakePagerDuty();
const slackApi = useFakeSlackApi();
const webhook = useFakeSlack();
const dynamo = useDynamo(["ordered"]);
const dispatcher = createHttpAgent();
let logs: string[];
const log: RunLogger = {
  info: (m, ...extra) => void logs.push(`${m} ${JSON.stringify(extra)}`),
  warn: (m, ...extra) => void logs.push(`${m} ${JSON.stringify(extra)}`),
};
beforeEach(() => {
  logs = [];
  slackApi.api.reset();
  webhook.slack.attempts.length = 0;
});

const order = (receiver: "slack" | "pager"): MessageOrder =>
  new DynamoMessageOrder({ client: dynamo.db.client, tableName: "ordered", receiver });
const pager = () =>
  new PagerDutyEvents({
    routingKey: PAGERDUTY_ROUTING_KEY,
    eventsUrl: pd.pagerduty.url,
    dispatcher,
    retry: { baseDelayMs: 300, maxDelayMs: 300 },
  });
const one = (text: string): DeliveredMessage[] => [{ id: crypto.randomUUID(), text }];
const page = (text: string, deadline = Date.now() + 10_000) =>
  deliverToPager({ pager: pager(), order: order("pager"), log }, one(text), deadline);
const actions = () =>
  pd.pagerduty.attempts
    .filter((a) => a.status === 202)
    .map((a) => (a.event as { event_action: string }).event_action);
const AT = (minute: number): { at: string } => ({
  at: `2026-11-30T06:${String(minute).padStart(2, "0")}:00.000Z`,
});

describe("the pager in its keys' order", () => {
  it("sends a trigger whose first try failed when Lambda retries it, since nothing came after it", async () => {
    const trigger = incidentText("firing", "inc-retried", [t(1)], AT(0));
    pd.pagerduty.faults.push({ status: 400, body: "{}" });
    await expect(page(trigger)).rejects.toThrow(/was refused/);
    expect(await page(trigger)).toMatchObject({ triggered: 1, dropped: 0 });
    expect(pd.pagerduty.open("inc-retried")).toBeDefined();
  });

  it("sends a trigger and the resolve after it one after the other when both are delivered at once", async () => {
    const trigger = incidentText("firing", "inc-race", [t(1)], AT(0));
    const resolve = incidentText("resolved", "inc-race", [t(1, "resolved")], { ...AT(15), runId: "run-2" });
    // The trigger's first attempt is answered 503, so it is still being sent when the resolve
    // arrives: sent at once, the resolve would reach PagerDuty first and close nothing.
    pd.pagerduty.faults.push({ status: 503 });
    const first = page(trigger);
    while (pd.pagerduty.attempts.length === 0) await new Promise((r) => setTimeout(r, 5));
    const second = page(resolve);
    expect(await Promise.all([first, second])).toEqual([
      { sent: 1, triggered: 1, resolved: 0, dropped: 0 },
      { sent: 1, triggered: 0, resolved: 1, dropped: 0 },
    ]);
    expect(actions()).toEqual(["trigger", "resolve"]);
    expect(pd.pagerduty.alerts.map((a) => [a.dedupKey, a.status])).toEqual([["inc-race", "resolved"]]);
    expect(logs.join("\n")).toContain("another delivery holds this message's key: waiting for it");
  });

  it("drops a degraded notice that arrives after its episode recovered", async () => {
    const degraded = healthText("degraded", "2026-11-29T03:00:00.000Z");
    const recovered = healthText("recovered", "2026-11-29T03:00:00.000Z");
    expect(await page(recovered)).toMatchObject({ resolved: 1 });
    expect(await page(degraded)).toMatchObject({ triggered: 0, dropped: 1 });
    expect(pd.pagerduty.alerts).toEqual([]);
  });

  it("fails a message whose key another delivery holds past its deadline, so that Lambda retries it", async () => {
    const o = order("pager");
    const hold = await o.hold("inc-held", Date.parse(AT(0).at) * 2, Date.now() + 60_000);
    expect(hold.kind).toBe("held");
    const late = incidentText("firing", "inc-held", [t(1)], AT(15));
    await expect(page(late, Date.now() + 500)).rejects.toThrow(OrderBusyError);
    expect(pd.pagerduty.attempts).toEqual([]);
  });
});

describe("Slack in its keys' order", () => {
  const bot = () => ({
    poster: new SlackBot({
      token: slackApi.api.token,
      channel: slackApi.api.channel,
      apiUrl: slackApi.api.apiUrl,
      dispatcher,
      minIntervalMs: 0,
    }),
    threads: new DynamoSlackThreads({
      client: dynamo.db.client,
      tableName: "ordered",
      channel: slackApi.api.channel,
    }),
    order: order("slack"),
    log,
  });
  const delivery = (m: DigestMessage | undefined): DeliveredMessage[] => one(forLambda(m?.message ?? "{}"));
  const soon = () => Date.now() + 10_000;

  it("drops an incident's change that Lambda retries after the incident's end was posted, and posts its end once", async () => {
    const l = new Landscape();
    const [opened] = l.run([failing("a", "eu-1")], 0);
    const [changed] = l.run([failing("a", "eu-1", "err_timeout", "op-2")], 1);
    const [ended] = l.run([], 2);
    const deps = bot();
    expect(await deliverToSlack(deps, delivery(opened), soon())).toEqual({ posted: 1, dropped: 0 });
    // Slack is down for the change's first delivery.
    slackApi.api.faults.push(...Array.from({ length: 10 }, () => ({ status: 503 })));
    // It fails however its short time ends: its retries run out, or the deadline cuts one short.
    await expect(deliverToSlack(deps, delivery(changed), Date.now() + 300)).rejects.toThrow(
      /kept failing|operation was aborted/,
    );
    slackApi.api.faults.length = 0;
    expect(await deliverToSlack(deps, delivery(ended), soon())).toEqual({ posted: 1, dropped: 0 });
    // Lambda's retry of the change, after the end, and SNS delivering the end a second time.
    expect(await deliverToSlack(deps, delivery(changed), soon())).toEqual({ posted: 0, dropped: 1 });
    expect(await deliverToSlack(deps, delivery(ended), soon())).toEqual({ posted: 0, dropped: 1 });
    const [parent, ...others] = slackApi.api.topLevel();
    expect(others).toEqual([]);
    expect(slackApi.api.replies(parent?.ts ?? "").map((r) => r.broadcast)).toEqual([true]);
    const text = logs.join("\n");
    expect(text).toContain("older than the last message applied under its key: dropped");
    expect(text).toContain('"runId":"run-1"');
    expect(text).toContain('"lastAppliedAt":"2026-12-01T10:00:00.000Z"');
    expect(text).toContain("already applied under its key: dropped");
  });

  it("through a webhook, drops an incident message older than the last posted, a roll-up's repeat too; a test notice is posted as it comes", async () => {
    const poster = new SlackWebhook({ url: webhook.slack.url, dispatcher, minIntervalMs: 0 });
    const deps = { poster, order: order("slack"), log };
    const l = new Landscape();
    const [opened] = l.run([failing("w", "ap-1")], 0);
    const [ended] = l.run([], 1);
    expect(await deliverToSlack(deps, delivery(ended), soon())).toEqual({ posted: 1, dropped: 0 });
    expect(await deliverToSlack(deps, delivery(opened), soon())).toEqual({ posted: 0, dropped: 1 });
    const storm = new Landscape().run([failing("s1", "sa-1"), failing("s2", "sa-2")], 0, 1);
    const rollUp = storm.at(-1);
    const notice = testNotice({
      testId: "t-1",
      topic: "incidents",
      at: AT(0).at,
      sender: "o",
      landscape: "e",
    });
    // A roll-up is threaded by its own key, in order like any incident's message.
    const posted = async (m: unknown) => await deliverToSlack(deps, delivery(m as DigestMessage), soon());
    expect(await posted(rollUp)).toEqual({ posted: 1, dropped: 0 });
    expect(await posted(rollUp)).toEqual({ posted: 0, dropped: 1 });
    for (const m of [notice, notice]) expect(await posted(m)).toEqual({ posted: 1, dropped: 0 });
    expect(webhook.slack.accepted()).toHaveLength(4);
  });
});
