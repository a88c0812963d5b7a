import type { RunSummary } from "@fleet-auditor/audit";
import { type DigestV1, DigestV1Schema } from "@fleet-auditor/render";
import { DynamoSilenceStore } from "@fleet-auditor/store";
import type { Context } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useDynamo } from "../helpers/dynamo.ts";
import { PAGERDUTY_ROUTING_KEY, useFakePagerDuty } from "../helpers/fake-pagerduty.ts";
import { useFakeSlackApi } from "../helpers/fake-slack-api.ts";
import { useKebSimulator } from "../helpers/keb.ts";
import { emulatorEnv, fakeContext, withEnv } from "../helpers/lambda.ts";
import { type Delivered, useSns } from "../helpers/sns.ts";
import { snsEvent } from "../helpers/sns-event.ts";

// One event, one page: a 3,000-runtime outage across 33 regions for 3 reasons (99 incidents of
// the default route), its partial and its full recovery, driven through the audit, Slack and pager
// functions on loopback (the KEB simulator, dynalite, fauxqs, a Slack Web API stand-in that keeps
// threads, a PagerDuty stand-in that keeps alerts). With the default routes: the pager gets one
// trigger and one resolve; chat at most 11 messages a run, and no top-level post for an incident
// rolled up in the storm; no title says resolved while a runtime still fails; every message names
// its incident key.

const kit = useKebSimulator({ fleet: { size: 20, seed: 7, flagged: 0 } });
const dynamo = useDynamo(["storm"]);
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
  const incidents = await sns.topic("storm-incidents");
  const critical = await sns.topic("storm-critical");
  alerts = await sns.subscriber("storm-alerts");
  chat = await sns.subscriber("storm-chat", undefined, incidents);
  paging = await sns.subscriber("storm-pager", undefined, critical);
  restore = withEnv({
    KEB_URL: kit.sim.url,
    KEB_TOKEN: "storm-token",
    AUDIT_TABLE: "storm",
    ALERT_TOPIC_ARN: sns.topicArn,
    INCIDENT_TOPIC_ARN: incidents,
    CRITICAL_TOPIC_ARN: critical,
    LANDSCAPE: "e2e",
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

const REGIONS = Array.from({ length: 33 }, (_, i) => `region-${String(i).padStart(2, "0")}`);
const REASONS = ["err_provisioning", "err_quota", "err_timeout"];
const FAILING_TITLE = /resolved/i;

describe("a 3,000-runtime event across 33 regions", () => {
  it("is one page, a few chat messages a run, no top-level post for what was rolled up, and a silenced incident quiet", async () => {
    const ids = kit.sim.fleet.create(3_000).map((c) => c.instanceID);
    ids.forEach((id, i) => {
      const runtime = kit.sim.fleet.get(id);
      if (!runtime) throw new Error(`no runtime ${id}`);
      runtime.region = REGIONS[i % 33] as string;
      kit.sim.fleet.fail(id, "provision");
      const op = runtime.operations.at(-1);
      if (op?.error) op.error = { ...op.error, reason: REASONS[Math.floor(i / 33) % 3] as string };
    });
    const topLevel = () => slack.api.topLevel().length;
    const before = topLevel();

    // Hour 0: 99 incidents open. The pager: one trigger. Chat: 10 threads and one roll-up.
    const storm = await runAt(0);
    expect(storm.summary.flagged).toBe(3_000);
    expect(storm.paged.map((p) => p.incident?.status)).toEqual(["firing"]);
    const page = storm.paged[0]?.incident?.key as string;
    expect(pd.pagerduty.alerts.map((a) => [a.dedupKey, a.status])).toEqual([[page, "triggered"]]);
    expect(storm.chat.length).toBeLessThanOrEqual(11);
    expect(storm.chat).toHaveLength(11);
    const threads = new Set(storm.chat.map((m) => m.threadId));
    expect(threads.size).toBe(11);
    expect(topLevel() - before).toBe(11);
    // Every message names its incident key, in its structured form and in what people read.
    for (const m of [...storm.chat, ...storm.paged.map((doc) => ({ doc }))]) {
      expect(m.doc.incident?.key).toMatch(/^inc-/);
      expect(JSON.stringify(m.doc)).toContain(m.doc.incident?.key as string);
    }
    for (const post of slack.api.topLevel().slice(before))
      expect(JSON.stringify(post.blocks)).toMatch(/inc-[\w-]{24}/);

    // An operator silences one incident of its own thread by its key (`silences add --incident`):
    // whatever becomes of its runtimes, its thread hears nothing more.
    const silenced = storm.chat.find((m) => m.doc.transitions.length + (m.doc.omitted ?? 0) < 100);
    const silencedKey = silenced?.doc.incident?.key as string;
    await new DynamoSilenceStore({ client: dynamo.db.client, tableName: "storm" }).add({
      id: "sil-incident",
      audit: "failing",
      match: [{ name: "incident_default", op: "=", value: silencedKey }],
      startsAt: new Date(T0).toISOString(),
      endsAt: new Date(T0 + 48 * HOUR).toISOString(),
      createdBy: "oncall",
      comment: "INC-1: known",
    });

    // Hour 1: eleven regions recover whole, the others two runtimes in three. Chat: news in the
    // threads it has, at most 11 messages, no new top-level post; no incident (or roll-up) still
    // failing is titled resolved; the page stays open.
    const recovered = ids.filter((_, i) => i % 33 < 11 || Math.floor(i / 99) % 3 !== 0);
    for (const id of recovered) kit.sim.fleet.recover(id);
    const partial = await runAt(1);
    expect(partial.chat.length).toBeGreaterThan(0);
    expect(partial.chat.length).toBeLessThanOrEqual(11);
    for (const m of partial.chat) expect(threads.has(m.threadId), m.threadId).toBe(true);
    expect(topLevel() - before).toBe(11);
    for (const m of partial.chat.filter((x) => x.doc.incident?.status === "firing"))
      expect(m.doc.subject, JSON.stringify(m.doc.incident)).not.toMatch(FAILING_TITLE);
    expect(partial.chat.some((m) => m.doc.incident?.status === "firing")).toBe(true);
    expect(partial.paged).toEqual([]);
    expect(partial.chat.map((m) => m.doc.incident?.key)).not.toContain(silencedKey);
    expect(partial.summary.notified.suppressed).toBeGreaterThan(0);

    // Hour 2: everything recovers. The page is resolved once; every end goes to a thread it had.
    const gone = new Set(recovered);
    for (const id of ids.filter((id) => !gone.has(id))) kit.sim.fleet.recover(id);
    const over = await runAt(2);
    expect(over.paged.map((p) => [p.incident?.key, p.incident?.status])).toEqual([[page, "resolved"]]);
    expect(pd.pagerduty.alerts.map((a) => [a.dedupKey, a.status])).toEqual([[page, "resolved"]]);
    expect(over.chat.length).toBeLessThanOrEqual(11);
    expect(over.chat.map((m) => m.doc.incident?.key)).not.toContain(silencedKey);
    for (const m of over.chat) {
      expect(threads.has(m.threadId), m.threadId).toBe(true);
      expect(m.doc.incident?.status).toBe("resolved");
    }
    expect(topLevel() - before).toBe(11);
  }, 180_000);
});
