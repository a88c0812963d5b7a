import {
  baselineNotice,
  HealthV1Schema,
  healthSlackMessage,
  notConfiguredNotice,
} from "@fleet-auditor/render";
import { pagerEventFor } from "@fleet-auditor/use-cases";
import { describe, expect, it } from "vitest";

// A stage's first-day notices in each channel: short, informational, never for the pager.

const ctx = { audit: "failing", runId: "run-1", at: "2026-11-01T06:00:00.000Z", landscape: "prod-eu" };
const baseline = baselineNotice(
  { ...ctx, report: { stored: true, command: "fleet-auditor runs show run-1 --table audit" } },
  [
    { state: "failed", count: 4000 },
    { state: "error", count: 900 },
    { state: "deprovisionincomplete", count: 100 },
  ],
);
const unset = notConfiguredNotice(
  ctx,
  ctx.at,
  "KEB_CLIENT_SECRET_ARN: could not read secret fleet-auditor/prod/KebClientSecret: no value yet",
);
const structured = (m: { message: string }) => JSON.parse(JSON.parse(m.message).default) as unknown;

describe("the baseline notice", () => {
  it("reads as one short message: the total, the count per state and the report command", () => {
    expect(baseline.subject).toBe(
      "[fleet-auditor] [prod-eu] failing audit baseline: 5000 already failing; see the report",
    );
    const email = JSON.parse(baseline.message).email as string;
    expect(email).toContain("By state: failed 4000, error 900, deprovisionincomplete 100.");
    expect(email).toContain("Report: fleet-auditor runs show run-1 --table audit");
    expect(baseline.attributes).toEqual({
      audit: "failing",
      severity: "info",
      kinds: ["baseline"],
      format: "health",
    });
    expect(baseline.topics).toEqual(["alerts", "incidents"]);
  });

  it("renders for Slack with its counts, and the pager refuses it", () => {
    const notice = HealthV1Schema.parse(structured(baseline));
    const slack = JSON.stringify(healthSlackMessage(notice));
    expect(slack).toContain("baseline: 5000 already failing; see the report");
    expect(slack).toContain("failed 4000");
    expect(() => pagerEventFor(JSON.stringify(notice))).toThrow(
      /Message.status: a baseline notice is not for the pager/,
    );
  });
});

describe("the not-configured notice", () => {
  it("names the variable and the secret, and the pager refuses it", () => {
    const notice = HealthV1Schema.parse(structured(unset));
    expect(notice).toMatchObject({
      status: "not-configured",
      since: ctx.at,
      runbook: "docs/deploy.md#secrets",
    });
    expect(unset.subject).toBe("[fleet-auditor] [prod-eu] failing audit not configured yet");
    expect(JSON.stringify(healthSlackMessage(notice))).toContain("KEB_CLIENT_SECRET_ARN");
    expect(() => pagerEventFor(JSON.stringify(notice))).toThrow(/not-configured notice is not for the pager/);
  });
});
