import { pathToFileURL } from "node:url";
import type { RunSummary } from "@fleet-auditor/audit";
import type { SimulatorOptions } from "@fleet-auditor/keb-kubeedge-sim";
import { type DigestV1, DigestV1Schema } from "@fleet-auditor/render";
import type { Context } from "aws-lambda";
import { afterAll, beforeAll, expect, inject, vi } from "vitest";
import { useDynamo } from "./dynamo.ts";
import {
  PAGERDUTY_ROUTING_KEY,
  PAGERDUTY_SERVICE_ID,
  PAGERDUTY_WEBHOOK_SECRET,
  useFakePagerDuty,
} from "./fake-pagerduty.ts";
import { useFakeSlackApi } from "./fake-slack-api.ts";
import { useKebSimulator } from "./keb.ts";
import { emulatorEnv, fakeContext, withEnv } from "./lambda.ts";
import { SIGNING_SECRET, TEAM } from "./slack-clicks.ts";
import { type Delivered, useSns } from "./sns.ts";
import { snsEvent } from "./sns-event.ts";

// A landscape driven through its functions on loopback: the KEB simulator, dynalite, fauxqs
// (Alerts, Incidents, Critical), the Slack function with a bot token against a Web API stand-in
// that keeps threads, and the pager function against a PagerDuty stand-in that keeps alerts by
// dedup key; and the two function URLs back, as bundled (`inbound`): the Slack actions function
// (the bot's buttons) and the PagerDuty webhook function. Time is the run's: Date is faked so that
// a reminder falls due, and nothing else is.

type Handler<R> = (event: unknown, context: Context) => Promise<R>;

/** A function URL's answer. */
export interface UrlAnswer {
  statusCode: number;
  headers?: Record<string, string>;
  body: string;
}

/** A message one of the subscribed topics delivered, as its Lambda subscriber and Chatbot get it. */
export interface Notice {
  /** The publish's `default`: what the Slack function and the pager are handed. */
  text: string;
  /** Its structured document (`default`, parsed). */
  json: { schema?: string } & Record<string, unknown>;
  /** Chatbot's thread for it (`https`'s `metadata.threadId`). */
  threadId: string;
}

/** What one run told, as its subscribers got it. */
export interface Told {
  summary: RunSummary;
  /** The incident messages, as the Slack function and Chatbot get them. */
  chat: Array<{ doc: DigestV1; threadId: string }>;
  /** The pager's messages. */
  paged: DigestV1[];
}

const HOUR = 3_600_000;

/**
 * The functions of a landscape named `name` (its table, topics and token) over a simulated fleet,
 * with `env` added to their variables; `runAt(hour)` runs the failing audit at the top of that hour
 * (40 hours ago is hour 0), then hands each delivered message to its function, one at a time
 * (`deliver` does that alone, for what was published between runs: an action's notice). The Slack
 * bot's messages carry buttons (`SLACK_INTERACTIVITY`), answered by `slackActions` (the bundled
 * Slack actions function, signing secret `SIGNING_SECRET`, workspace `TEAM`, the bot's channel);
 * `pagerDutyWebhook` is the bundled PagerDuty webhook function (`PAGERDUTY_WEBHOOK_SECRET`, service
 * `PAGERDUTY_SERVICE_ID`). Both are loaded at their first request.
 */
export function useLandscapeFunctions(
  name: string,
  fleet: SimulatorOptions["fleet"],
  env: Record<string, string> = {},
) {
  const kit = useKebSimulator({ fleet });
  const dynamo = useDynamo([name]);
  const sns = useSns();
  const pd = useFakePagerDuty();
  const slack = useFakeSlackApi();
  const T0 = Math.floor(Date.now() / HOUR) * HOUR - 40 * HOUR;
  let alerts: () => Promise<Delivered[]>;
  let chat: () => Promise<Delivered[]>;
  let paging: () => Promise<Delivered[]>;
  let restore: () => void = () => undefined;
  let audit: Handler<RunSummary>;
  let slackFn: Handler<{ posted: number }>;
  let pager: Handler<unknown>;
  const bundles = new Map<string, Promise<Handler<UrlAnswer>>>();

  beforeAll(async () => {
    const incidents = await sns.topic(`${name}-incidents`);
    const critical = await sns.topic(`${name}-critical`);
    alerts = await sns.subscriber(`${name}-alerts`);
    chat = await sns.subscriber(`${name}-chat`, undefined, incidents);
    paging = await sns.subscriber(`${name}-pager`, undefined, critical);
    restore = withEnv({
      KEB_URL: kit.sim.url,
      KEB_TOKEN: `${name}-token`,
      AUDIT_TABLE: name,
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
      SLACK_INTERACTIVITY: "true",
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_SIGNING_SECRET_ARN: undefined,
      SLACK_TEAM_ID: TEAM,
      SLACK_RESPONSE_URL_PREFIX: new URL(slack.api.apiUrl).origin,
      PAGERDUTY_ROUTING_KEY,
      PAGERDUTY_EVENTS_URL: pd.pagerduty.url,
      PAGERDUTY_DEADLINE_MARGIN_MS: "0",
      PAGERDUTY_WEBHOOK_SECRET,
      PAGERDUTY_WEBHOOK_SECRET_ARN: undefined,
      PAGERDUTY_SERVICE_ID,
      ...emulatorEnv({ dynamodb: dynamo.db.endpoint, sns: `http://127.0.0.1:${sns.server.port}` }),
      ...env,
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

  /** A function as deployed (its bundle, as SST builds it), cold-started at its first request. */
  function bundled(fn: "slack-actions" | "pagerduty-webhook"): Promise<Handler<UrlAnswer>> {
    let loading = bundles.get(fn);
    if (!loading) {
      const file = pathToFileURL(inject("functionBundles")[fn] as string).href;
      loading = import(file).then((m: { handler: Handler<UrlAnswer> }) => m.handler);
      bundles.set(fn, loading);
    }
    return loading;
  }
  const urlContext = (fn: string): Context => ({
    ...fakeContext(`fleet-auditor-e2e-${fn}`),
    getRemainingTimeInMillis: () => 10_000,
  });
  /** A request to the Slack app's interactivity URL (a function URL event), answered. */
  async function slackActions(event: unknown): Promise<UrlAnswer> {
    return (await bundled("slack-actions"))(event, urlContext("SlackActions"));
  }
  /** A delivery to the PagerDuty webhook subscription's URL (a function URL event), answered. */
  async function pagerDutyWebhook(event: unknown): Promise<UrlAnswer> {
    return (await bundled("pagerduty-webhook"))(event, urlContext("PagerDutyWebhook"));
  }

  /**
   * What the Incidents and Critical topics delivered since, each handed to its function (the Slack
   * function, the pager), one at a time, as SNS invokes them.
   */
  async function deliver(): Promise<{ chat: Notice[]; paged: Notice[] }> {
    const parse = (d: Delivered): Notice => {
      const body = JSON.parse(d.Message) as { default: string; https: string };
      const chatbot = JSON.parse(body.https) as { metadata: { threadId: string } };
      return { text: body.default, json: JSON.parse(body.default), threadId: chatbot.metadata.threadId };
    };
    const told = (await chat()).map(parse);
    const paged = (await paging()).map(parse);
    const context = { ...fakeContext("fleet-auditor-slack"), getRemainingTimeInMillis: () => 60_000 };
    // SNS invokes a subscriber per message, in no promised order: one at a time here, as the
    // Slack function's reserved concurrency of 1 makes it.
    for (const m of told) await slackFn(snsEvent([m.text], "Incidents"), context);
    for (const m of paged) await pager(snsEvent([m.text], "Critical"), context);
    return { chat: told, paged };
  }

  /** One scheduled run at `hour`, then what each topic delivered, handed to its subscriber. */
  async function runAt(hour: number): Promise<Told> {
    const at = T0 + hour * HOUR;
    vi.setSystemTime(at);
    const summary = await audit(
      { audit: "failing", scheduledTime: new Date(at).toISOString() },
      fakeContext(),
    );
    expect(summary.notified.failed, summary.notified.error).toBe(0);
    await alerts();
    const { chat: told, paged } = await deliver();
    return {
      summary,
      chat: told.map(({ json, threadId }) => ({ doc: DigestV1Schema.parse(json), threadId })),
      paged: paged.map((p) => DigestV1Schema.parse(p.json)),
    };
  }

  return {
    kit,
    dynamo,
    sns,
    pd,
    slack,
    T0,
    HOUR,
    runAt,
    deliver,
    slackActions,
    pagerDutyWebhook,
  };
}
