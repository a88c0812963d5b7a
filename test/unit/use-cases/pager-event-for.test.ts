import {
  DigestV1Schema,
  HealthV1Schema,
  healthPagerEvent,
  incidentPagerEvent,
  runDigestPagerEvent,
} from "@fleet-auditor/render";
import { pagerEventFor, RunInputError } from "@fleet-auditor/use-cases";
import { describe, expect, it } from "vitest";
import { healthText, incidentText, runDigestText } from "../../helpers/pager-messages.ts";
import { AT, t } from "../../helpers/transitions.ts";

// Which PagerDuty event a text the Critical topic delivered gets, and what is refused. The events
// themselves are render's (test/unit/render/pagerduty-event.test.ts).

const KEY = "inc-AbCdEfGhIjKlMnOpQrStUvWx";
const refusal = (text: string): RunInputError => {
  try {
    pagerEventFor(text);
  } catch (err) {
    if (err instanceof RunInputError) return err;
    throw err;
  }
  throw new Error("expected a refusal");
};
/** A delivered incident message with some of its digest's fields replaced. */
const editedIncident = (edit: (d: Record<string, unknown>) => void): string => {
  const d = JSON.parse(incidentText("firing", KEY)) as Record<string, unknown>;
  edit(d);
  return JSON.stringify(d);
};

describe("the pager's event for a delivered message", () => {
  it("gives an incident message its incident's event, naming the run that sent it", () => {
    const text = incidentText("firing", KEY, [t(1), t(4, "changed")]);
    const digest = DigestV1Schema.parse(JSON.parse(text));
    expect(pagerEventFor(text)).toEqual({
      event: incidentPagerEvent(digest, digest.incident as NonNullable<typeof digest.incident>),
      about: "incident",
      runId: "run-1",
      place: { key: KEY, at: AT, place: Date.parse(AT) * 2 },
    });
  });

  it("resolves a resolved incident under the same key, with nothing but the key", () => {
    expect(pagerEventFor(incidentText("resolved", KEY))).toEqual({
      event: { event_action: "resolve", dedup_key: KEY },
      about: "incident",
      runId: "run-1",
      place: { key: KEY, at: AT, place: Date.parse(AT) * 2 + 1 },
    });
  });

  it("places an incident's and an episode's messages by their run's time, an ending after an opening of the same time", () => {
    const placeOf = (text: string) => pagerEventFor(text).place?.place ?? Number.NaN;
    const at = (iso: string) => ({ at: iso });
    const trigger = placeOf(incidentText("firing", KEY, [t(1)], at("2026-11-30T06:00:00.000Z")));
    const resolve = placeOf(
      incidentText("resolved", KEY, [t(1, "resolved")], at("2026-11-30T06:15:00.000Z")),
    );
    const again = placeOf(incidentText("firing", KEY, [t(1)], at("2026-11-30T06:30:00.000+00:00")));
    expect(trigger).toBeLessThan(resolve);
    expect(resolve).toBeLessThan(again);
    // A time with an offset is the instant it names.
    expect(placeOf(incidentText("firing", KEY, [t(1)], at("2026-11-30T07:00:00.000+01:00")))).toBe(trigger);
    expect(placeOf(healthText("degraded"))).toBeLessThan(placeOf(healthText("recovered")));
    // What no later message supersedes has no place: a digest without an incident.
    expect(pagerEventFor(runDigestText()).place).toBeUndefined();
  });

  it("gives a health notice its episode's event", () => {
    const text = healthText("degraded");
    const notice = HealthV1Schema.parse(JSON.parse(text));
    expect(pagerEventFor(text)).toEqual({
      event: healthPagerEvent(notice),
      about: "health",
      runId: "run-degraded",
      place: { key: notice.key, at: AT, place: Date.parse(AT) * 2 },
    });
  });

  it("pages a digest without an incident under its run's key, the same key every time", () => {
    const text = runDigestText();
    const first = pagerEventFor(text);
    expect(first).toMatchObject({ about: "run", event: { event_action: "trigger" } });
    expect(first.event).toEqual(runDigestPagerEvent(DigestV1Schema.parse(JSON.parse(text))));
    expect(pagerEventFor(text).event.dedup_key).toBe(first.event.dedup_key);
  });

  it("refuses a key longer than PagerDuty's 255 characters by its field, never its value", () => {
    const err = refusal(incidentText("firing", `inc-${"k".repeat(252)}`));
    expect(err.message).toContain("Message.incident.key: is longer than PagerDuty's 255 characters");
    expect(err.message).not.toContain("kkkk");
    expect(pagerEventFor(incidentText("firing", `inc-${"k".repeat(251)}`)).event.dedup_key).toHaveLength(255);
    expect(refusal(incidentText("firing", "")).message).toContain("Message.incident.key: is empty");
  });

  it("refuses text, another publisher's JSON and a document its schema refuses, naming the field", () => {
    expect(refusal("fleet-auditor [prod-eu] DEGRADED: <KEB>").message).toMatch(
      /^invalid input: Message: expected a fleet-auditor.digest\/v1, a fleet-auditor.health\/v1 or a fleet-auditor.test\/v1/,
    );
    expect(refusal(JSON.stringify({ schema: "other/v9", secret: "hunter2" })).message).toMatch(
      /Message.schema: expected/,
    );
    const foreign = refusal(
      editedIncident((d) => {
        d.at = "hunter2";
        d.incident = { key: KEY, status: "open", startsAt: "yesterday" };
      }),
    );
    for (const field of ["Message.at", "Message.incident.status", "Message.incident.startsAt"])
      expect(foreign.message).toContain(field);
    expect(foreign.message).not.toContain("hunter2");
    expect(foreign.message).not.toContain("yesterday");
  });
});
