import { createHttpAgent } from "@fleet-auditor/http/agent";
import { PagerDutyError, type PagerDutyEvent, PagerDutyEvents } from "@fleet-auditor/notify";
import { describe, expect, it } from "vitest";
import { PAGERDUTY_ROUTING_KEY, useFakePagerDuty } from "../../helpers/fake-pagerduty.ts";

// The Events API v2 client against a PagerDuty stand-in on loopback that keeps alerts by dedup
// key and answers 429, 500, 400 or a dropped connection on demand.

const fake = useFakePagerDuty();
const dispatcher = createHttpAgent();

const events = (routingKey = PAGERDUTY_ROUTING_KEY): PagerDutyEvents =>
  new PagerDutyEvents({
    routingKey,
    eventsUrl: fake.pagerduty.url,
    dispatcher,
    // Short waits: the policy is keb's, tested on its own; here what is retried, and until when.
    retry: { baseDelayMs: 20, maxDelayMs: 100 },
  });
const trigger = (key: string): PagerDutyEvent => ({
  event_action: "trigger",
  dedup_key: key,
  payload: { summary: "failing audit: 1 firing", source: "prod-eu", severity: "critical" },
  links: [{ href: "https://console.example/runs/run-1", text: "Run report" }],
  client: "fleet-auditor",
});
const resolve = (key: string): PagerDutyEvent => ({ event_action: "resolve", dedup_key: key });
const soon = (ms = 10_000): number => Date.now() + ms;
const failure = (p: Promise<unknown>): Promise<PagerDutyError> =>
  p.then(
    () => {
      throw new Error("expected a PagerDutyError");
    },
    (err: unknown) => err as PagerDutyError,
  );

describe("PagerDutyEvents", () => {
  it("sends the routing key with the event: a trigger opens an alert and a resolve closes it", async () => {
    const pd = fake.pagerduty;
    await events().send(trigger("inc-1"), soon());
    expect(pd.open("inc-1")?.triggers[0]).toMatchObject({
      routing_key: PAGERDUTY_ROUTING_KEY,
      event_action: "trigger",
      links: [{ href: "https://console.example/runs/run-1", text: "Run report" }],
    });
    await events().send(resolve("inc-1"), soon());
    expect(pd.alerts.map((a) => [a.dedupKey, a.status])).toEqual([["inc-1", "resolved"]]);
  });

  it("retries a 429, a 500 and a dropped connection, then sends once", async () => {
    const pd = fake.pagerduty;
    pd.faults.push({ status: 429 }, { status: 500, body: "oops" }, { drop: true });
    await events().send(trigger("inc-2"), soon());
    expect(pd.attempts.map((a) => a.status)).toEqual([429, 500, 0, 202]);
    expect(pd.alerts).toHaveLength(1);
  });

  it("does not retry a refusal: throws with PagerDuty's message, never the routing key", async () => {
    const pd = fake.pagerduty;
    const err = await failure(events("not-the-routing-key-0123456789ab").send(trigger("inc-3"), soon()));
    expect(err).toBeInstanceOf(PagerDutyError);
    expect(err).toMatchObject({
      code: "NOTIFY_PAGERDUTY",
      status: 400,
      action: "trigger",
      dedupKey: "inc-3",
    });
    expect(err.message).toBe(
      "the PagerDuty trigger of inc-3 was refused: HTTP 400 Event object is invalid; 'routing_key' is invalid",
    );
    expect(pd.attempts).toHaveLength(1);
    expect(pd.alerts).toEqual([]);
  });

  it("keeps the routing key out of an error even when PagerDuty's answer echoes it", async () => {
    fake.pagerduty.faults.push({
      status: 400,
      body: JSON.stringify({
        message: `unknown key ${PAGERDUTY_ROUTING_KEY}`,
        errors: [PAGERDUTY_ROUTING_KEY],
      }),
    });
    const err = await failure(events().send(trigger("inc-4"), soon()));
    expect(`${err.message} ${err.stack} ${err.errors.join()}`).not.toContain(PAGERDUTY_ROUTING_KEY);
    expect(err.message).toContain("unknown key [redacted]");
  });

  it("gives up when the next wait would pass the deadline, with the last answer", async () => {
    const pd = fake.pagerduty;
    pd.faults.push({ status: 429, retryAfter: "30" });
    // Gave up at once rather than sleep toward its deadline: far under it, however loaded the machine.
    const started = Date.now();
    const err = await failure(events().send(trigger("inc-5"), soon(20_000)));
    expect(err.message).toBe("the PagerDuty trigger of inc-5 kept failing: HTTP 429 Requests are throttled");
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(pd.attempts).toHaveLength(1);
  });

  it("counts a 202 whose body breaks off as sent: no second event", async () => {
    const pd = fake.pagerduty;
    pd.faults.push({ status: 202, body: '{"status":"succ', breakOff: true });
    await events().send(trigger("inc-6"), soon());
    expect(pd.attempts.map((a) => a.status)).toEqual([202]);
  });
});
