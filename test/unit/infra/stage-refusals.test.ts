import { describe, expect, it } from "vitest";
import { StagesFileSchema } from "../../../infra/stage-schema.ts";

// stages.json refuses, before anything is deployed, what AWS would refuse halfway through a
// deploy: a rate in the wrong number, a time zone the scheduler does not know, an SNS filter
// policy whose values are not arrays or objects, a region that is not one.

/** The problems the schema finds in one stage's entry, as `field: message` lines. */
function problems(entry: Record<string, unknown>): string[] {
  const parsed = StagesFileSchema.safeParse({ stages: { prod: entry } });
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

describe("stages.json refuses what AWS refuses", () => {
  it("takes a rate's unit singular for 1 and plural otherwise, as EventBridge Scheduler does", () => {
    for (const rate of ["rate(1 minute)", "rate(1 hour)", "rate(1 day)", "rate(15 minutes)", "rate(2 hours)"])
      expect(problems({ schedules: { enabled: true, failing: rate } }), rate).toEqual([]);
    for (const rate of [
      "rate(1 hours)",
      "rate(15 minute)",
      "rate(0 minutes)",
      "rate(30 seconds)",
      "rate(1.5 hours)",
    ])
      expect(problems({ schedules: { enabled: true, failing: rate } }).join("\n"), rate).toMatch(
        /^stages\.prod\.schedules\.failing: /,
      );
  });

  it("takes an incident summary's schedule, window and time zone, and refuses a window or time zone the scheduler would not take", () => {
    for (const incidentSummary of [
      true,
      {},
      { schedule: "cron(0 8 ? * MON *)", since: "7d", timezone: "Europe/Berlin" },
      { schedule: "rate(1 day)", since: "24h" },
      { since: "90d" },
    ])
      expect(problems({ incidentSummary }), JSON.stringify(incidentSummary)).toEqual([]);
    expect(problems({ incidentSummary: false })).toEqual([
      'stages.prod.incidentSummary: expected true, or { "schedule", "since", "timezone" }',
    ]);
    expect(problems({ incidentSummary: { since: "7 days" } })).toEqual([
      'stages.prod.incidentSummary.since: expected a window such as "7d" or "24h"',
    ]);
    for (const incidentSummary of [
      { schedule: "weekly" },
      { schedule: "rate(15 minutes)" },
      { timezone: "CEST" },
      { sinse: "7d" },
    ])
      expect(problems({ incidentSummary }).join("\n"), JSON.stringify(incidentSummary)).toMatch(
        /^stages\.prod\.incidentSummary/,
      );
  });

  it("takes an IANA time zone the runtime knows, and refuses one it does not", () => {
    for (const timezone of ["Europe/Berlin", "UTC", "America/New_York"])
      expect(problems({ schedules: { enabled: true, timezone } }), timezone).toEqual([]);
    for (const timezone of ["Europe/Munich", "CEST", "GMT+25"])
      expect(problems({ schedules: { enabled: true, timezone } }), timezone).toEqual([
        "stages.prod.schedules.timezone: expected an IANA time zone such as Europe/Berlin",
      ]);
  });

  it("takes filter-policy values that are arrays or objects, and refuses a bare string or number", () => {
    const address = "team@example.com";
    for (const filter of [{ severity: ["critical"] }, { audit: { "anything-but": ["expired"] } }])
      expect(problems({ alertEmails: [{ address, filter }] })).toEqual([]);
    for (const filter of [{ severity: "critical" }, { attempts: 3 }])
      expect(problems({ alertEmails: [{ address, filter }] }).join("\n")).toMatch(
        /^stages\.prod\.alertEmails\.0\.filter\.\w+: expected an array of values/,
      );
  });

  it("takes a region AWS has, and refuses one shaped like a region that is not", () => {
    expect(problems({ region: "eu-west-1" })).toEqual([]);
    expect(problems({ region: "ap-southeast-7" })).toEqual([]);
    for (const region of ["eu-centrall-1", "us-east-9", "mars-north-1"])
      expect(problems({ region }).join("\n"), region).toMatch(
        /^stages\.prod\.region: expected an AWS region/,
      );
  });

  it("takes inhibition rules whose matchers parse and name the audit's labels, and names the rule and field of one that does not", () => {
    const rule = { sourceMatchers: ["state=failed"], targetMatchers: ["reason=~err_.*"], equal: ["region"] };
    expect(problems({ inhibitRules: { failing: [rule], applications: [] } })).toEqual([]);
    const bad = (change: Record<string, unknown>) =>
      problems({ inhibitRules: { failing: [rule, { ...rule, ...change }] } }).join("\n");
    expect(bad({ targetMatchers: ["state=failed", "reason=~("] })).toMatch(
      /^stages\.prod\.inhibitRules\.failing\.1\.targetMatchers\.1: matcher "reason=~\(": not a regular expression RE2 accepts/,
    );
    expect(bad({ sourceMatchers: ["state"] })).toMatch(
      /^stages\.prod\.inhibitRules\.failing\.1\.sourceMatchers\.0: matcher "state": expected NAME=VALUE/,
    );
    expect(bad({ sourceMatchers: ["node=edge-1"] })).toMatch(
      /^stages\.prod\.inhibitRules\.failing\.1\.sourceMatchers\.0: .*no label node on these findings/,
    );
    expect(bad({ equal: ["node"] })).toMatch(/^stages\.prod\.inhibitRules\.failing\.1\.equal\.0: /);
    expect(bad({ targetMatchers: [] })).toMatch(
      /^stages\.prod\.inhibitRules\.failing\.1\.targetMatchers: expected at least one matcher/,
    );
    expect(problems({ inhibitRules: { nightly: [rule] } }).join("\n")).toMatch(/Unrecognized key: "nightly"/);
  });
});
