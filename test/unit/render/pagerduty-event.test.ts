import {
  type DigestV1,
  DigestV1Schema,
  HEALTH_RUNBOOK_DOC,
  type HealthV1,
  HealthV1Schema,
  healthPagerEvent,
  incidentPagerEvent,
  PAGER_LIMITS,
  type PagerEvent,
  type PagerTrigger,
  runDigestPagerEvent,
} from "@fleet-auditor/render";
import { describe, expect, it } from "vitest";
import { healthText, incidentText, runDigestText } from "../../helpers/pager-messages.ts";
import { t } from "../../helpers/transitions.ts";

// The pager's channel: a structured message as a PagerDuty Events API v2 event, pure, every bound
// checked on the event itself. (Which event a delivered text gets, and what is refused, is
// use-cases' `pagerEventFor`: test/unit/use-cases/pager-event-for.test.ts.)

const KEY = "inc-AbCdEfGhIjKlMnOpQrStUvWx";
const digestOf = (text: string): DigestV1 => DigestV1Schema.parse(JSON.parse(text));
const noticeOf = (text: string): HealthV1 => HealthV1Schema.parse(JSON.parse(text));
const asTrigger = (event: PagerEvent): PagerTrigger => {
  if (event.event_action !== "trigger") throw new Error(`expected a trigger, got ${event.event_action}`);
  return event;
};
/** The event of an incident message's digest. */
const incidentEvent = (digest: DigestV1): PagerEvent =>
  incidentPagerEvent(digest, digest.incident as NonNullable<DigestV1["incident"]>);
const trigger = (text: string): PagerTrigger => asTrigger(incidentEvent(digestOf(text)));
/** An incident message's digest with some of its fields replaced. */
const editedIncident = (edit: (d: Record<string, unknown>) => void): string => {
  const d = JSON.parse(incidentText("firing", KEY)) as Record<string, unknown>;
  edit(d);
  return JSON.stringify(d);
};

describe("the pager's event for an incident message", () => {
  it("triggers a firing incident under its key, with what an on-call person needs", () => {
    const e = trigger(incidentText("firing", KEY, [t(1), t(4, "changed")]));
    expect(e).toMatchObject({
      event_action: "trigger",
      dedup_key: KEY,
      client: "fleet-auditor",
      payload: {
        source: "prod-eu",
        severity: "critical",
        timestamp: "2026-11-30T04:00:00.000Z",
        component: "failing",
        group: "prod-eu",
        class: "firing,changed",
        custom_details: {
          runId: "run-1",
          incident: { key: KEY, status: "firing" },
          counts: { firing: 1, changed: 1, reminder: 0, resolved: 0 },
          report: { command: "fleet-auditor runs show run-1", url: "https://console.example/runs/run-1" },
          // In the digest's order.
          transitions: expect.arrayContaining([
            {
              key: "instance-00001",
              kind: "firing",
              state: "failed",
              reason: "err_keb_timeout",
              console: "https://console.example/runtimes/instance-00001",
            },
            {
              key: "instance-00004",
              kind: "changed",
              state: "failed",
              reason: "err_keb_timeout",
              console: "https://console.example/runtimes/instance-00004",
            },
          ]),
          moreTransitions: 0,
        },
      },
      links: [
        { href: "https://console.example/runtimes/instance-00001", text: "Console: c-0000001" },
        { href: "https://console.example/runtimes/instance-00004", text: "Console: c-0000004" },
        { href: "https://runbooks.example/err_keb_timeout", text: "Runbook" },
        { href: "https://console.example/runs/run-1", text: "Run report" },
      ],
    });
    expect(e.payload.custom_details).toMatchObject({
      incident_key: KEY,
      runbook: "https://runbooks.example/err_keb_timeout",
      silence: `fleet-auditor silences add --audit failing --incident ${KEY} --for 4h --comment 'acknowledged: incident ${KEY}' --by "$USER"`,
    });
    // What is wrong, how many, where and since when; no "CRITICAL failing: 2 firing".
    expect(e.payload.summary).toBe(
      "failed (err_keb_timeout) in westeurope: 1 new finding, 1 changed | prod-eu | CRITICAL | failing audit | since 2026-11-30 04:00 UTC (2h)",
    );
  });

  it("resolves a resolved incident under the same key, with nothing but the key", () => {
    expect(incidentEvent(digestOf(incidentText("resolved", KEY)))).toEqual({
      event_action: "resolve",
      dedup_key: KEY,
    });
  });

  it("takes the digest's severity", () => {
    const warning = incidentText("firing", KEY, [t(1, "firing", { severity: "warning" })]);
    expect(trigger(warning).payload.severity).toBe("warning");
  });

  it("cuts a summary at 1,024 whole characters, on one line", () => {
    // 🔥 is two UTF-16 units: a cut by units would leave half of one.
    const text = editedIncident((d) => {
      (d.incident as { values: unknown }).values = { state: `line one\nline two ${"🔥".repeat(2_000)}` };
    });
    const { summary } = trigger(text).payload;
    expect(Array.from(summary)).toHaveLength(PAGER_LIMITS.summary);
    expect(summary).toMatch(/^line one line two (🔥)+…: 1 new finding$/u);
    // No half of a surrogate pair at the cut.
    expect(summary).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it("keeps custom_details small for a digest of 3,000 transitions, counting what it leaves to the report", () => {
    const many = Array.from({ length: 3_000 }, (_, i) => t(i, "firing"));
    const e = trigger(incidentText("firing", KEY, many));
    const details = e.payload.custom_details as { transitions: unknown[]; moreTransitions: number };
    expect(details.transitions).toHaveLength(20);
    expect(details.moreTransitions).toBe(3_000 - 20);
    expect(Buffer.byteLength(JSON.stringify(e))).toBeLessThan(16_000);
  });

  it("keeps custom_details small whatever the length of the digest's texts", () => {
    const long = "x".repeat(20_000);
    const text = editedIncident((d) => {
      d.runId = long;
      d.audit = long;
      d.landscape = long;
      d.report = { stored: true, command: long };
      d.transitions = Array.from({ length: 50 }, (_, i) => ({
        ...(d.transitions as object[])[0],
        instanceID: `${i}${long}`,
        state: long,
        reason: long,
      }));
    });
    expect(Buffer.byteLength(JSON.stringify(trigger(text)))).toBeLessThan(20_000);
  });

  it("links only plain https: URLs", () => {
    const noLinks = editedIncident((d) => {
      d.report = { stored: true, command: "fleet-auditor runs show run-1" };
      d.transitions = (d.transitions as Array<Record<string, unknown>>).map((x) => ({ ...x, links: {} }));
    });
    expect(trigger(noLinks).links).toEqual([]);
  });
});

describe("the pager's event for a health notice", () => {
  it("triggers degraded as a warning under the episode's key and resolves recovered under the same key", () => {
    const degraded = asTrigger(healthPagerEvent(noticeOf(healthText("degraded"))));
    expect(degraded).toMatchObject({
      event_action: "trigger",
      dedup_key: expect.stringMatching(/^hlt-/),
      payload: {
        severity: "warning",
        source: "prod-eu",
        timestamp: "2026-11-30T03:00:00.000Z",
        component: "failing",
        class: "degraded",
        custom_details: { badRuns: 3, reason: "page 1 failed: HTTP 503", runbook: HEALTH_RUNBOOK_DOC },
      },
    });
    expect(degraded.payload.summary).toMatch(/failing audit is DEGRADED/);
    // A README pointer is no URL: it stays in the details, and no link is made of it.
    expect(degraded.links).toEqual([]);
    expect(healthPagerEvent(noticeOf(healthText("recovered")))).toEqual({
      event_action: "resolve",
      dedup_key: degraded.dedup_key,
    });
    const next = asTrigger(healthPagerEvent(noticeOf(healthText("degraded", "2026-12-01T00:00:00.000Z"))));
    expect(next.dedup_key).not.toBe(degraded.dedup_key);
  });

  it("links the runbook when it is an https: URL", () => {
    const notice = noticeOf(healthText("degraded", undefined, "https://wiki.example/runbooks/{reason}"));
    expect(asTrigger(healthPagerEvent(notice)).links).toEqual([
      { href: "https://wiki.example/runbooks/fleet-auditor-degraded", text: "Runbook" },
    ]);
  });
});

describe("the pager's event for a digest without an incident", () => {
  it("triggers under its run's key, the same key every time, and another run's key for another run", () => {
    const digest = digestOf(runDigestText());
    const first = runDigestPagerEvent(digest);
    expect(first).toMatchObject({ event_action: "trigger", payload: { component: "failing" } });
    expect(first.dedup_key).toMatch(/^run-[\w-]{24}$/);
    expect(runDigestPagerEvent(digestOf(runDigestText())).dedup_key).toBe(first.dedup_key);
    expect(runDigestPagerEvent({ ...digest, runId: "run-2" }).dedup_key).not.toBe(first.dedup_key);
  });
});
