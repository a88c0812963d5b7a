import { createHttpAgent } from "@fleet-auditor/http/agent";
import { PagerDutyEvents } from "@fleet-auditor/notify";
import { type DeliveredMessage, deliverToPager, type RunLogger } from "@fleet-auditor/use-cases";
import { afterEach, describe, expect, it } from "vitest";
import { PAGERDUTY_ROUTING_KEY, useFakePagerDuty } from "../../helpers/fake-pagerduty.ts";
import { healthText, incidentText, runDigestText } from "../../helpers/pager-messages.ts";
import { t } from "../../helpers/transitions.ts";

// The pager's use case against a PagerDuty stand-in that keeps alerts by dedup key: what the
// Critical topic delivers opens and closes one alert per incident and per health episode.

const fake = useFakePagerDuty();
const dispatcher = createHttpAgent();
let lines: string[] = [];
const log: RunLogger = {
  info: (message, ...extra) => void lines.push(JSON.stringify({ level: "info", message, extra })),
  warn: (message, ...extra) => void lines.push(JSON.stringify({ level: "warn", message, extra })),
};
afterEach(() => {
  // Whatever a test did, the routing key never reached a log line.
  expect(lines.join("\n")).not.toContain(PAGERDUTY_ROUTING_KEY);
  lines = [];
});

const pager = (routingKey = PAGERDUTY_ROUTING_KEY) =>
  new PagerDutyEvents({
    routingKey,
    eventsUrl: fake.pagerduty.url,
    dispatcher,
    retry: { baseDelayMs: 20, maxDelayMs: 100 },
  });
let n = 0;
const sns = (...texts: string[]): DeliveredMessage[] => texts.map((text) => ({ id: `msg-${++n}`, text }));
const deliver = (texts: string[], routingKey?: string) =>
  deliverToPager({ pager: pager(routingKey), log }, sns(...texts), Date.now() + 10_000);
const alerts = () => fake.pagerduty.alerts.map((a) => [a.dedupKey, a.status, a.triggers.length]);

describe("deliverToPager", () => {
  it("opens one alert when an incident fires and closes it when the incident ends; a later episode opens a new one", async () => {
    expect(await deliver([incidentText("firing", "inc-first")])).toEqual({
      sent: 1,
      triggered: 1,
      resolved: 0,
      dropped: 0,
    });
    // A retried invocation adds to the open alert instead of opening another.
    await deliver([incidentText("firing", "inc-first")]);
    expect(alerts()).toEqual([["inc-first", "triggered", 2]]);
    await deliver([incidentText("resolved", "inc-first", [t(1, "resolved")], { runId: "run-2" })]);
    expect(alerts()).toEqual([["inc-first", "resolved", 2]]);
    // The same values failing again later are a new incident, with a new key.
    await deliver([incidentText("firing", "inc-second", [t(1)], { runId: "run-3" })]);
    expect(alerts()).toEqual([
      ["inc-first", "resolved", 2],
      ["inc-second", "triggered", 1],
    ]);
    expect(fake.pagerduty.open("inc-second")?.triggers[0]).toMatchObject({
      payload: { severity: "critical", source: "prod-eu", custom_details: { runId: "run-3" } },
    });
    expect(lines.join()).toContain('"message":"sent to PagerDuty"');
  });

  it("keeps two incidents open side by side and closes only the one that ended", async () => {
    await deliver([incidentText("firing", "inc-a"), incidentText("firing", "inc-b", [t(2)])]);
    await deliver([incidentText("resolved", "inc-a", [t(1, "resolved")])]);
    expect(alerts()).toEqual([
      ["inc-a", "resolved", 1],
      ["inc-b", "triggered", 1],
    ]);
  });

  it("opens one alert when the auditor degrades and closes it when it recovers", async () => {
    expect(await deliver([healthText("degraded")])).toMatchObject({ triggered: 1 });
    expect(await deliver([healthText("recovered")])).toMatchObject({ resolved: 1 });
    const [alert] = fake.pagerduty.alerts;
    expect(alert).toMatchObject({ dedupKey: expect.stringMatching(/^hlt-/), status: "resolved" });
    expect(alert?.triggers[0]).toMatchObject({ payload: { severity: "warning", class: "degraded" } });
  });

  it("accepts a resolve with no alert open, which changes nothing", async () => {
    expect(await deliver([incidentText("resolved", "inc-never-opened")])).toMatchObject({ resolved: 1 });
    expect(fake.pagerduty.alerts).toEqual([]);
  });

  it("pages an older release's critical digest under its run's key, and says no message will resolve it", async () => {
    await deliver([runDigestText(), runDigestText()]);
    expect(alerts()).toEqual([[expect.stringMatching(/^run-/), "triggered", 2]]);
    expect(lines.join()).toContain("no later message resolves it");
  });

  it("retries 429 and 500 answers and sends the event once", async () => {
    fake.pagerduty.faults.push({ status: 429 }, { status: 500 });
    await deliver([incidentText("firing", "inc-retried")]);
    expect(fake.pagerduty.attempts.map((a) => a.status)).toEqual([429, 500, 202]);
    expect(alerts()).toEqual([["inc-retried", "triggered", 1]]);
  });

  it("throws on a refusal without retrying it, with PagerDuty's message and never the routing key", async () => {
    const err = (await deliver(
      [incidentText("firing", "inc-refused")],
      "wrong-routing-key-0123456789abcd",
    ).catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(/the PagerDuty trigger of inc-refused was refused: HTTP 400 .*routing_key/);
    expect(fake.pagerduty.attempts).toHaveLength(1);
    expect(`${err.message}${err.stack}`).not.toContain("wrong-routing-key");
    expect(lines.join()).toContain("PagerDuty did not take the event");
  });

  it("refuses a message it cannot send, naming the field, and sends nothing for it", async () => {
    const err = (await deliver(["fleet-auditor [prod-eu] DEGRADED"]).catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(/^invalid input: Message: expected a fleet-auditor.digest\/v1/);
    const foreign = JSON.parse(incidentText("firing", "inc-x")) as Record<string, unknown>;
    const bad = JSON.stringify({ ...foreign, incident: { key: "inc-x", status: "open" } });
    await expect(deliver([bad])).rejects.toThrow(
      /Message.incident.status.*Message.incident.startsAt: is required/,
    );
    expect(fake.pagerduty.attempts).toEqual([]);
    expect(lines.join()).toContain("a message the pager cannot send is refused");
  });
});
