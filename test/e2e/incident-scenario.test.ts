import type { RunSummary } from "@fleet-auditor/audit";
import { type DigestV1, DigestV1Schema } from "@fleet-auditor/render";
import type { Context } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useDynamo } from "../helpers/dynamo.ts";
import { PAGERDUTY_ROUTING_KEY, useFakePagerDuty } from "../helpers/fake-pagerduty.ts";
import { useFakeSlackApi } from "../helpers/fake-slack-api.ts";
import { useKebSimulator } from "../helpers/keb.ts";
import { emulatorEnv, fakeContext, withEnv } from "../helpers/lambda.ts";
import { type Delivered, useSns } from "../helpers/sns.ts";
import { snsEvent } from "../helpers/sns-event.ts";

// One landscape followed through its incidents, from the audit function to every channel, on
// loopback: the KEB simulator, dynalite, fauxqs (Alerts, Incidents, Critical), the Slack function
// with a bot token against a Web API stand-in that keeps threads, and the pager function against
// a PagerDuty stand-in that keeps alerts by dedup key. Each runtime is an incident of its own
// (GROUP_BY_FAILING=instance), so the story is the simulator's to tell exactly. Time is the
// run's: Date is faked so that a reminder falls due, and nothing else is.

const kit = useKebSimulator({ fleet: { size: 60, seed: 5, flagged: 0 } });
const dynamo = useDynamo(["scenario"]);
const sns = useSns();
const pd = useFakePagerDuty();
const slack = useFakeSlackApi();

let alerts: () => Promise<Delivered[]>;
let chat: () => Promise<Delivered[]>;
let paging: () => Promise<Delivered[]>;
let restore: () => void = () => undefined;
type Handler<R> = (event: unknown, context: Context) => Promise<R>;
let audit: Handler<RunSummary>;
let slackFn: Handler<{ posted: number }>;
let pager: Handler<unknown>;

const HOUR = 3_600_000;
// The top of an hour: scheduled times and the run's clock move together.
const T0 = Math.floor(Date.now() / HOUR) * HOUR - 40 * HOUR;

beforeAll(async () => {
  const incidents = await sns.topic("scenario-incidents");
  const critical = await sns.topic("scenario-critical");
  alerts = await sns.subscriber("scenario-alerts");
  chat = await sns.subscriber("scenario-chat", undefined, incidents);
  paging = await sns.subscriber("scenario-pager", undefined, critical);
  restore = withEnv({
    KEB_URL: kit.sim.url,
    KEB_TOKEN: "scenario-token",
    AUDIT_TABLE: "scenario",
    ALERT_TOPIC_ARN: sns.topicArn,
    INCIDENT_TOPIC_ARN: incidents,
    CRITICAL_TOPIC_ARN: critical,
    LANDSCAPE: "e2e",
    GROUP_BY_FAILING: "instance",
    MAX_NEW_INCIDENT_MESSAGES: "10",
    SLACK_WEBHOOK_URL: undefined,
    SLACK_BOT_TOKEN: slack.api.token,
    SLACK_CHANNEL: slack.api.channel,
    SLACK_API_URL: slack.api.apiUrl,
    SLACK_MIN_INTERVAL_MS: "0",
    SLACK_DEADLINE_MARGIN_MS: "0",
    PAGERDUTY_ROUTING_KEY,
    PAGERDUTY_EVENTS_URL: pd.pagerduty.url,
    PAGERDUTY_DEADLINE_MARGIN_MS: "0",
    ...emulatorEnv({ dynamodb: dynamo.db.endpoint, sns: `http://127.0.0.1:${sns.server.port}` }),
  });
  // Before the cold starts: a clock a module keeps (`Date.now`) is then the faked one too.
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(T0);
  vi.resetModules();
  audit = (await import("../../functions/audit.ts")).handler as Handler<RunSummary>;
  slackFn = (await import("../../functions/slack.ts")).handler as Handler<{ posted: number }>;
  pager = (await import("../../functions/pager.ts")).handler as Handler<unknown>;
});
afterAll(() => {
  vi.useRealTimers();
  restore();
});

interface Told {
  summary: RunSummary;
  /** The incident messages, as the Slack function and Chatbot get them. */
  chat: Array<{ doc: DigestV1; threadId: string }>;
  /** The pager's messages. */
  paged: DigestV1[];
}

/** One scheduled run at `hour`, then what each topic delivered, handed to its subscriber. */
async function runAt(hour: number): Promise<Told> {
  const at = T0 + hour * HOUR;
  vi.setSystemTime(at);
  const summary = await audit({ audit: "failing", scheduledTime: new Date(at).toISOString() }, fakeContext());
  expect(summary.notified.failed, summary.notified.error).toBe(0);
  await alerts();
  const parse = (d: Delivered) => {
    const body = JSON.parse(d.Message) as { default: string; https: string };
    const chatbot = JSON.parse(body.https) as { metadata: { threadId: string } };
    return { body, doc: DigestV1Schema.parse(JSON.parse(body.default)), threadId: chatbot.metadata.threadId };
  };
  const told = (await chat()).map(parse);
  const paged = (await paging()).map(parse);
  const context = { ...fakeContext("fleet-auditor-slack"), getRemainingTimeInMillis: () => 60_000 };
  // SNS invokes a subscriber per message, in no promised order: one at a time here, as the
  // Slack function's reserved concurrency of 1 makes it.
  for (const m of told) await slackFn(snsEvent([m.body.default], "Incidents"), context);
  for (const m of paged) await pager(snsEvent([m.body.default], "Critical"), context);
  return {
    summary,
    chat: told.map(({ doc, threadId }) => ({ doc, threadId })),
    paged: paged.map((p) => p.doc),
  };
}

const keyOf = (m: { doc: DigestV1 } | DigestV1 | undefined): string | undefined =>
  m && ("doc" in m ? m.doc : m).incident?.key;
const about = (told: Told, id: string) =>
  told.chat.filter((m) => m.doc.transitions.some((t) => t.instanceID === id));
const alertsOf = (key: string) => pd.pagerduty.alerts.filter((a) => a.dedupKey === key).map((a) => a.status);

describe("an incident followed from start to end, in every channel", () => {
  it("keeps one thread per incident and one page per audit episode, a new key for the next, and a storm to the cap", async () => {
    const [a, b] = kit.sim.fleet.create(2).map((c) => c.instanceID) as [string, string];
    for (const id of [a, b]) kit.sim.fleet.fail(id, "provision");

    // Hour 0: two incidents open, each in a thread of its own; the pager gets one page for both.
    const opened = await runAt(0);
    const [inA] = about(opened, a);
    const [inB] = about(opened, b);
    expect(opened.chat).toHaveLength(2);
    const keyA = keyOf(inA) as string;
    const keyB = keyOf(inB) as string;
    expect(keyA).toMatch(/^inc-/);
    expect(keyB).not.toBe(keyA);
    expect(inA?.threadId).toBe(`fleet-auditor:e2e:failing:incident:${keyA}`);
    expect(opened.paged).toHaveLength(1);
    const page = keyOf(opened.paged[0]) as string;
    expect([keyA, keyB]).not.toContain(page);
    expect(opened.paged[0]?.transitions.map((t) => t.instanceID).sort()).toEqual([a, b].sort());
    expect(alertsOf(page)).toEqual(["triggered"]);
    const parents = slack.api.topLevel();
    expect(parents).toHaveLength(2);
    const parentA = parents.find((m) => JSON.stringify(m.blocks).includes(a));
    expect(parentA).toBeDefined();

    // Hour 1: a's operation fails again for another reason: told in a's incident, from what to what.
    kit.sim.fleet.fail(a, "provision");
    const changed = await runAt(1);
    expect(changed.chat.map((m) => [keyOf(m), m.doc.transitions.map((t) => t.kind)])).toEqual([
      [keyA, ["changed"]],
    ]);
    expect(changed.chat[0]?.threadId).toBe(inA?.threadId);
    const change = changed.chat[0]?.doc.transitions[0];
    expect(change?.previousOperation?.operationID).toBeDefined();
    expect(change?.previousOperation?.operationID).not.toBe(change?.operation?.operationID);
    expect(changed.paged).toEqual([]);

    // Hour 26: a day on, both are reminded, each in its own thread.
    const reminded = await runAt(26);
    expect(reminded.chat.map((m) => [keyOf(m), m.doc.transitions.map((t) => t.kind)]).sort()).toEqual(
      [
        [keyA, ["reminder"]],
        [keyB, ["reminder"]],
      ].sort(),
    );
    expect(reminded.paged).toEqual([]);

    // Hour 27: a recovers: its incident ends, in its thread; the page stays open for b.
    kit.sim.fleet.recover(a);
    const ended = await runAt(27);
    expect(ended.chat.map((m) => [keyOf(m), m.doc.incident?.status])).toEqual([[keyA, "resolved"]]);
    expect(ended.chat[0]?.threadId).toBe(inA?.threadId);
    expect(ended.paged).toEqual([]);
    expect(alertsOf(page)).toEqual(["triggered"]);

    // One Slack thread held all of a's news: the parent, then the change, the reminder, the end
    // (broadcast, so the channel sees it end).
    const repliesA = slack.api.replies(parentA?.ts ?? "");
    expect(repliesA).toHaveLength(3);
    expect(repliesA.map((r) => r.broadcast)).toEqual([false, false, true]);

    // Hour 28: a fails again: a new incident, under a new key, in a new thread; it joins the open page.
    kit.sim.fleet.fail(a, "provision");
    const again = await runAt(28);
    const keyA2 = keyOf(again.chat[0]) as string;
    expect(again.chat).toHaveLength(1);
    expect(keyA2).not.toBe(keyA);
    expect(again.chat[0]?.threadId).not.toBe(inA?.threadId);
    expect(again.paged).toEqual([]);
    expect(slack.api.topLevel()).toHaveLength(3);

    // Hour 29: a storm of 50 new incidents while b ends: 10 of them told on their own and the rest
    // in one roll-up with a thread of its own; b's end still reaches b's thread; the page, open
    // already, hears nothing: one event, one page.
    const storm = kit.sim.fleet.create(50).map((c) => c.instanceID);
    for (const id of storm) kit.sim.fleet.fail(id, "provision");
    kit.sim.fleet.recover(b);
    const stormy = await runAt(29);
    const size = (m: { doc: DigestV1 }) => m.doc.transitions.length + (m.doc.omitted ?? 0);
    const rollUps = stormy.chat.filter((m) => size(m) > 1);
    const own = stormy.chat.filter((m) => size(m) === 1 && keyOf(m) !== keyB);
    expect(own.filter((m) => m.doc.incident?.status === "firing")).toHaveLength(10);
    expect(rollUps).toHaveLength(1);
    expect(size(rollUps[0] as { doc: DigestV1 })).toBe(40);
    expect(rollUps[0]?.doc.incident?.status).toBe("firing");
    const endOfB = stormy.chat.filter((m) => keyOf(m) === keyB);
    expect(endOfB.map((m) => [m.doc.incident?.status, m.threadId])).toEqual([["resolved", inB?.threadId]]);
    expect(stormy.paged).toEqual([]);
    expect(pd.pagerduty.alerts.filter((x) => x.status === "triggered")).toHaveLength(1);
    // In Slack: b's thread holds its reminder and its end; the storm is 10 parents and a roll-up.
    const parentB = parents.find((m) => JSON.stringify(m.blocks).includes(b));
    expect(slack.api.replies(parentB?.ts ?? "").map((r) => r.broadcast)).toEqual([false, true]);
    expect(slack.api.topLevel()).toHaveLength(3 + 10 + 1);

    // Hour 30: half of the rolled-up runtimes recover: one message, in the roll-up's thread; no
    // new top-level post, and the page stays open.
    const rolled = rollUps[0]?.doc.transitions.map((t) => t.instanceID) ?? [];
    for (const id of rolled.slice(0, 20)) kit.sim.fleet.recover(id);
    const partial = await runAt(30);
    expect(partial.chat.map((m) => m.threadId)).toEqual([rollUps[0]?.threadId]);
    expect(partial.chat[0]?.doc.incident?.status).toBe("firing");
    expect(partial.paged).toEqual([]);
    expect(slack.api.topLevel()).toHaveLength(14);

    // Hour 31: everything recovers: the page is resolved once, every end in a thread it had.
    for (const id of [a, ...storm]) kit.sim.fleet.recover(id);
    const over = await runAt(31);
    expect(over.paged.map((p) => [keyOf(p), p.incident?.status])).toEqual([[page, "resolved"]]);
    expect(alertsOf(page)).toEqual(["resolved"]);
    expect(
      over.chat.filter((m) => m.threadId === rollUps[0]?.threadId).map((m) => m.doc.incident?.status),
    ).toEqual(["resolved"]);
    expect(slack.api.topLevel()).toHaveLength(14);
  }, 120_000);
});
