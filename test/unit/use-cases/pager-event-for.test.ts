import { HEALTH_RUNBOOK_DOC } from "@fleet-auditor/render";
import { type PagerTrigger, pagerEventFor, RunInputError } from "@fleet-auditor/use-cases";
import { describe, expect, it } from "vitest";
import { healthText, incidentText, runDigestText } from "../../helpers/pager-messages.ts";
import { t } from "../../helpers/transitions.ts";

// The pager's mapping from what the Critical topic delivers to a PagerDuty Events API v2 event:
// pure, every bound checked on the event itself.

const KEY = "inc-AbCdEfGhIjKlMnOpQrStUvWx";
const trigger = (text: string): PagerTrigger => {
  const { event } = pagerEventFor(text);
  if (event.event_action !== "trigger") throw new Error(`expected a trigger, got ${event.event_action}`);
  return event;
};
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
            { key: "instance-00001", kind: "firing", state: "failed", reason: "err_keb_timeout" },
            { key: "instance-00004", kind: "changed", state: "failed", reason: "err_keb_timeout" },
          ]),
          moreTransitions: 0,
        },
      },
      links: [
        { href: "https://console.example/runs/run-1", text: "Run report" },
        { href: "https://runbooks.example/err_keb_timeout", text: "Runbook" },
      ],
    });
    expect(e.payload.summary).toMatch(/^\[fleet-auditor\] \[prod-eu\] CRITICAL failing/);
  });

  it("resolves a resolved incident under the same key, with nothing but the key", () => {
    expect(pagerEventFor(incidentText("resolved", KEY))).toEqual({
      event: { event_action: "resolve", dedup_key: KEY },
      about: "incident",
      runId: "run-1",
    });
  });

  it("takes the digest's severity", () => {
    const warning = incidentText("firing", KEY, [t(1, "firing", { severity: "warning" })]);
    expect(trigger(warning).payload.severity).toBe("warning");
  });

  it("cuts a summary at 1,024 whole characters, on one line", () => {
    // 🔥 is two UTF-16 units: a cut by units would leave half of one.
    const text = editedIncident((d) => {
      d.subject = `line one\nline two ${"🔥".repeat(2_000)}`;
    });
    const { summary } = trigger(text).payload;
    expect(Array.from(summary)).toHaveLength(1_024);
    expect(summary).toMatch(/^line one line two (🔥)+…$/u);
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

  it("refuses a key longer than PagerDuty's 255 characters by its field, never its value", () => {
    const err = refusal(incidentText("firing", `inc-${"k".repeat(252)}`));
    expect(err.message).toContain("Message.incident.key: is longer than PagerDuty's 255 characters");
    expect(err.message).not.toContain("kkkk");
    expect(pagerEventFor(incidentText("firing", `inc-${"k".repeat(251)}`)).event.dedup_key).toHaveLength(255);
    expect(refusal(incidentText("firing", "")).message).toContain("Message.incident.key: is empty");
  });
});

describe("the pager's event for a health notice", () => {
  it("triggers degraded as a warning under the episode's key and resolves recovered under the same key", () => {
    const degraded = trigger(healthText("degraded"));
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
    expect(pagerEventFor(healthText("recovered")).event).toEqual({
      event_action: "resolve",
      dedup_key: degraded.dedup_key,
    });
    const next = trigger(healthText("degraded", "2026-12-01T00:00:00.000Z"));
    expect(next.dedup_key).not.toBe(degraded.dedup_key);
  });

  it("links the runbook when it is an https: URL", () => {
    const e = trigger(healthText("degraded", undefined, "https://wiki.example/runbooks/{reason}"));
    expect(e.links).toEqual([
      { href: "https://wiki.example/runbooks/fleet-auditor-degraded", text: "Runbook" },
    ]);
  });
});

describe("the pager's event for anything else", () => {
  it("pages a digest without an incident under its run's key, the same key every time", () => {
    const text = runDigestText();
    const first = pagerEventFor(text);
    expect(first).toMatchObject({ about: "run", event: { event_action: "trigger" } });
    expect(first.event.dedup_key).toMatch(/^run-[\w-]{24}$/);
    expect(pagerEventFor(text).event.dedup_key).toBe(first.event.dedup_key);
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
