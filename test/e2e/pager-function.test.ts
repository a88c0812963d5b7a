import { type DigestV1, testNotice } from "@fleet-auditor/render";
import type { Context } from "aws-lambda";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { useDynamo } from "../helpers/dynamo.ts";
import { PAGERDUTY_ROUTING_KEY, useFakePagerDuty } from "../helpers/fake-pagerduty.ts";
import { useKebSimulator } from "../helpers/keb.ts";
import { emulatorEnv, fakeContext, withEnv } from "../helpers/lambda.ts";
import { healthText, incidentText } from "../helpers/pager-messages.ts";
import { type Delivered, useSns } from "../helpers/sns.ts";
import { forLambda, snsEvent } from "../helpers/sns-event.ts";
import { AT, t } from "../helpers/transitions.ts";

// The pager function, SNS → PagerDuty Events API v2, against a stand-in that keeps alerts by
// dedup key and answers 429, 500 and 400 on demand.

const fake = useFakePagerDuty();
const kit = useKebSimulator({ fleet: { size: 120, seed: 17, flagged: 6 } });
const dynamo = useDynamo(["pager-chain"]);
const sns = useSns();
let restore: () => void = () => undefined;
let logs: string[] = [];

beforeEach(() => {
  logs = [];
  const capture = (chunk: unknown): boolean => {
    logs.push(String(chunk));
    return true;
  };
  vi.spyOn(process.stdout, "write").mockImplementation(capture);
  vi.spyOn(process.stderr, "write").mockImplementation(capture);
});
afterEach(() => {
  restore();
  // Whatever a test did, the routing key never reached a log line.
  expect(logs.join("")).not.toContain(PAGERDUTY_ROUTING_KEY);
});

type Result = { sent: number; triggered: number; resolved: number; dropped: number };
type Handler = (event: unknown, context: Context) => Promise<Result>;

async function coldStart(vars: Record<string, string | undefined> = {}): Promise<Handler> {
  restore();
  restore = withEnv({
    ...emulatorEnv({ dynamodb: dynamo.db.endpoint }),
    PAGERDUTY_ROUTING_KEY,
    PAGERDUTY_EVENTS_URL: fake.pagerduty.url,
    PAGERDUTY_DEADLINE_MARGIN_MS: "0",
    POWERTOOLS_LOG_LEVEL: "INFO",
    POWERTOOLS_METRICS_DISABLED: "true",
    AUDIT_TABLE: "pager-chain",
    ...vars,
  });
  vi.resetModules();
  return (await import("../../functions/pager.ts")).handler as Handler;
}

const withTime = (ms: number): Context => ({
  ...fakeContext("fleet-auditor-pager"),
  getRemainingTimeInMillis: () => ms,
});
const alerts = () => fake.pagerduty.alerts.map((a) => [a.dedupKey, a.status]);
/** The time of the run after `AT`'s (scheduled every 15 minutes). */
const NEXT_RUN = "2026-11-30T06:15:00.000Z";

describe("functions/pager.ts", () => {
  it("opens an alert when a critical incident fires and closes it when it ends, logging the events sent", async () => {
    const handler = await coldStart({ POWERTOOLS_METRICS_DISABLED: "false" });
    expect(
      await handler(snsEvent([incidentText("firing", "inc-e2e")], "Critical"), withTime(30_000)),
    ).toEqual({
      sent: 1,
      triggered: 1,
      resolved: 0,
      dropped: 0,
    });
    expect(alerts()).toEqual([["inc-e2e", "triggered"]]);
    await handler(snsEvent([incidentText("resolved", "inc-e2e", [t(1, "resolved")])]), withTime(30_000));
    expect(alerts()).toEqual([["inc-e2e", "resolved"]]);
    expect(logs.join("")).toMatch(/"pagerEvents":\s*1/);
    // A log field, not a metric: no custom metric on the bill for it.
    expect(logs.join("")).not.toContain('"_aws"');
    expect(logs.join("")).toContain('"dedupKey":"inc-e2e"');
  });

  it("opens one alert for a degraded auditor and closes it when it recovers", async () => {
    const handler = await coldStart();
    await handler(snsEvent([healthText("degraded")]), withTime(30_000));
    await handler(snsEvent([healthText("recovered")]), withTime(30_000));
    expect(alerts()).toEqual([[expect.stringMatching(/^hlt-/), "resolved"]]);
  });

  it("opens an alert for a notify test and resolves it at once: info, marked [TEST], under the test's own key", async () => {
    const handler = await coldStart();
    const notice = testNotice({
      testId: "t-1",
      topic: "critical",
      at: AT,
      sender: "alice",
      landscape: "e2e",
    });
    expect(await handler(snsEvent([forLambda(notice.message)], "Critical"), withTime(30_000))).toEqual({
      sent: 2,
      triggered: 1,
      resolved: 1,
      dropped: 0,
    });
    const [trigger, resolve] = fake.pagerduty.attempts.map((a) => a.event as Record<string, unknown>);
    expect(fake.pagerduty.attempts.map((a) => a.status)).toEqual([202, 202]);
    expect(trigger).toMatchObject({
      event_action: "trigger",
      dedup_key: expect.stringMatching(/^tst-/),
      payload: { severity: "info", summary: expect.stringMatching(/^\[TEST\] \[e2e\] /) },
    });
    expect(resolve).toEqual({
      routing_key: PAGERDUTY_ROUTING_KEY,
      event_action: "resolve",
      dedup_key: trigger?.dedup_key,
    });
    // Nobody stays paged: the one alert it opened is closed.
    expect(alerts()).toEqual([[trigger?.dedup_key, "resolved"]]);
    expect(logs.join("")).toContain('"testId":"t-1"');
  });

  it("retries a 429 and a 500 with backoff, then sends once", async () => {
    fake.pagerduty.faults.push({ status: 429 }, { status: 500 });
    const handler = await coldStart();
    await handler(snsEvent([incidentText("firing", "inc-retry")]), withTime(30_000));
    expect(fake.pagerduty.attempts.map((a) => a.status)).toEqual([429, 500, 202]);
    expect(alerts()).toEqual([["inc-retry", "triggered"]]);
  });

  it("fails the invocation on a refusal without retrying it, with PagerDuty's message and never the routing key", async () => {
    fake.pagerduty.faults.push({
      status: 400,
      body: JSON.stringify({ status: "invalid event", message: "Event object is invalid", errors: ["bad"] }),
    });
    const handler = await coldStart();
    const err = (await handler(snsEvent([incidentText("firing", "inc-400")]), withTime(30_000)).catch(
      (e: unknown) => e,
    )) as Error;
    expect(err.message).toBe(
      "the PagerDuty trigger of inc-400 was refused: HTTP 400 Event object is invalid; bad",
    );
    expect(fake.pagerduty.attempts).toHaveLength(1);
    expect(`${err.stack}`).not.toContain(PAGERDUTY_ROUTING_KEY);
    expect(logs.join("")).toContain("PagerDuty did not take the event");
  });

  it("keeps an incident's alert closed when Lambda retries its trigger after its resolve went through", async () => {
    const handler = await coldStart({ POWERTOOLS_METRICS_DISABLED: "false" });
    const trigger = snsEvent(
      [incidentText("firing", "inc-late", [t(1)], { runId: "run-1", at: AT })],
      "Critical",
    );
    const resolve = snsEvent(
      [incidentText("resolved", "inc-late", [t(1, "resolved")], { runId: "run-2", at: NEXT_RUN })],
      "Critical",
    );
    // PagerDuty is down for the trigger's first invocation only: it fails, and Lambda keeps it
    // (its retries run out, or on a loaded machine its deadline cuts the last one short).
    fake.pagerduty.faults.push(...Array.from({ length: 10 }, () => ({ status: 503 })));
    await expect(handler(trigger, withTime(1_200))).rejects.toThrow(
      /trigger of inc-late kept failing|operation was aborted/,
    );
    fake.pagerduty.faults.length = 0;
    // The next run tells the incident's end, which goes through.
    expect(await handler(resolve, withTime(30_000))).toMatchObject({ resolved: 1 });
    // Lambda's retry of the trigger comes after it: it is older than the resolve, and dropped.
    expect(await handler(trigger, withTime(30_000))).toEqual({
      sent: 0,
      triggered: 0,
      resolved: 0,
      dropped: 1,
    });
    expect(fake.pagerduty.open("inc-late")).toBeUndefined();
    const taken = fake.pagerduty.attempts.filter((a) => a.status === 202);
    expect(taken.map((a) => (a.event as { event_action: string }).event_action)).toEqual(["resolve"]);
    const text = logs.join("");
    expect(text).toContain("older than the last message applied under its key: dropped");
    expect(text).toContain('"dedupKey":"inc-late"');
    // Counted, as a metric of its own (printed only when something was dropped).
    expect(text).toMatch(/"Dropped":\s*1/);
  });

  it("sends a message retried after it was sent once only", async () => {
    const handler = await coldStart();
    const trigger = snsEvent([incidentText("firing", "inc-twice", [t(1)], { runId: "run-1", at: AT })]);
    expect(await handler(trigger, withTime(30_000))).toMatchObject({ triggered: 1, dropped: 0 });
    expect(await handler(trigger, withTime(30_000))).toMatchObject({ triggered: 0, dropped: 1 });
    expect(fake.pagerduty.open("inc-twice")?.triggers).toHaveLength(1);
    expect(logs.join("")).toContain("already applied under its key: dropped");
  });

  it("refuses what it cannot send, naming the field, and a bad configuration at cold start without echoing it", async () => {
    const handler = await coldStart();
    await expect(handler({ Records: [] }, withTime(30_000))).rejects.toThrow(/invalid input: Records/);
    await expect(handler(snsEvent(["DEGRADED: <KEB>"]), withTime(30_000))).rejects.toThrow(
      /invalid input: Message: expected a fleet-auditor.digest\/v1, a fleet-auditor.health\/v1 or a fleet-auditor.test\/v1/,
    );
    expect(fake.pagerduty.attempts).toEqual([]);
    await expect(coldStart({ PAGERDUTY_ROUTING_KEY: undefined })).rejects.toThrow(
      /PAGERDUTY_ROUTING_KEY: is required/,
    );
    const pasted = await coldStart({ PAGERDUTY_ROUTING_KEY: `${PAGERDUTY_ROUTING_KEY}\n` }).catch(
      (e: unknown) => e,
    );
    expect(String(pasted)).toMatch(/PAGERDUTY_ROUTING_KEY: expected a PagerDuty integration \(routing\) key/);
    expect(String(pasted)).not.toContain(PAGERDUTY_ROUTING_KEY);
    await expect(coldStart({ PAGERDUTY_EVENTS_URL: "http://events.example" })).rejects.toThrow(
      /PAGERDUTY_EVENTS_URL: expected an https: URL \(http: only to a loopback host\)/,
    );
  });
});

describe("functions/pager.ts after the audit function", () => {
  let critical: () => Promise<Delivered[]>;
  let criticalArn: string;
  let incidentsArn: string;
  beforeAll(async () => {
    criticalArn = await sns.topic("pager-critical");
    incidentsArn = await sns.topic("pager-incidents");
    critical = await sns.subscriber("pager-critical-q", undefined, criticalArn);
  });

  async function auditRun(): Promise<void> {
    restore();
    restore = withEnv({
      KEB_URL: kit.sim.url,
      KEB_TOKEN: "t",
      AUDIT_TABLE: "pager-chain",
      ALERT_TOPIC_ARN: sns.topicArn,
      CRITICAL_TOPIC_ARN: criticalArn,
      INCIDENT_TOPIC_ARN: incidentsArn,
      LANDSCAPE: "e2e",
      ...emulatorEnv({ dynamodb: dynamo.db.endpoint, sns: `http://127.0.0.1:${sns.server.port}` }),
    });
    vi.resetModules();
    const audit = (await import("../../functions/audit.ts")).handler as (
      e: unknown,
      c: unknown,
    ) => Promise<unknown>;
    await audit({ audit: "failing" }, fakeContext());
  }
  // fauxqs hands SQS the whole JSON document; SNS gives a Lambda subscriber its `default`.
  const paged = async (): Promise<DigestV1[]> =>
    (await critical()).map((d) => JSON.parse(forLambda(d.Message)) as DigestV1);
  const page = async (messages: DigestV1[]): Promise<Result> =>
    (await coldStart())(
      snsEvent(
        messages.map((m) => JSON.stringify(m)),
        "Critical",
      ),
      withTime(30_000),
    );

  it("opens one alert for the audit's critical runtimes the Critical topic delivers, and closes it when they recover", async () => {
    await auditRun();
    const opened = await paged();
    // The default pager route: one incident per audit episode, whatever their regions and reasons.
    expect(opened).toHaveLength(1);
    const keys = opened.map((m) => m.incident?.key);
    expect(opened.map((m) => m.incident?.status)).toEqual(keys.map(() => "firing"));
    expect(await page(opened)).toEqual({
      sent: keys.length,
      triggered: keys.length,
      resolved: 0,
      dropped: 0,
    });
    expect(alerts()).toEqual(keys.map((k) => [k, "triggered"]));

    // Its runtimes recover: the next run tells its end, under the same key.
    for (const m of opened) for (const tr of m.transitions) kit.sim.fleet.recover(tr.instanceID);
    await auditRun();
    const ended = await paged();
    expect(ended.map((m) => [m.incident?.key, m.incident?.status])).toEqual(keys.map((k) => [k, "resolved"]));
    expect(await page(ended)).toEqual({ sent: keys.length, triggered: 0, resolved: keys.length, dropped: 0 });
    expect(alerts()).toEqual(keys.map((k) => [k, "resolved"]));
  });
});
