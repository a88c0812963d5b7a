import { describe, expect, it } from "vitest";
import { durationSeconds } from "../../../infra/duration.ts";
import { type AuditSchedule, auditSchedules } from "../../../infra/schedules.ts";
import { recordSstConfig, TELLS } from "../../helpers/sst-stand-ins.ts";

// What the not-running alarm waits for: a rate's period, or the longest gap a cron schedule's
// stage states; a cron without one fails the deploy naming the setting, instead of falling back
// to a default period and raising a false alarm between its runs.

describe("audit schedules", () => {
  it("take a rate's period as its gap, and the default hourly cron's hour", () => {
    const s = auditSchedules("prod");
    expect(
      Object.fromEntries(Object.entries(s).map(([k, v]) => [k, [v.schedule, v.maxGapSeconds, v.service]])),
    ).toEqual({
      failing: ["rate(15 minutes)", 900, "audit"],
      expired: ["cron(0 * * * ? *)", 3_600, "audit"],
      applications: ["rate(5 minutes)", 300, "applications-audit"],
    });
    expect(auditSchedules("daily", { failing: "rate(1 day)" }).failing.maxGapSeconds).toBe(86_400);
    expect(auditSchedules("s", { applications: "rate(1 minute)" }).applications.maxGapSeconds).toBe(60);
  });

  it("take a cron's stated longest gap, and refuse a cron without one, naming the setting", () => {
    const twoHourly: AuditSchedule = { schedule: "cron(0 */2 * * ? *)", maxGap: "2 hours" };
    expect(auditSchedules("staging", { expired: twoHourly }).expired.maxGapSeconds).toBe(7_200);
    const bare = { expired: "cron(0 */2 * * ? *)" } as unknown as { expired: AuditSchedule };
    expect(() => auditSchedules("staging", bare)).toThrow(
      /^stage staging: schedules\.expired is cron\(0 \*\/2 \* \* \? \*\): a cron schedule needs the longest gap/,
    );
    const noGap = { failing: { schedule: "cron(0 8,12 * * ? *)" } } as unknown as { failing: AuditSchedule };
    expect(() => auditSchedules("weekday", noGap)).toThrow(/stage weekday: schedules\.failing is cron/);
  });

  it("refuse what the alarm cannot watch or the scheduler would not run", () => {
    const cron = (maxGap: string) => ({ expired: { schedule: "cron(0 2 * * ? *)", maxGap } }) as never;
    expect(() => auditSchedules("s", cron("2 fortnights"))).toThrow(
      /stage s: schedules\.expired\.maxGap: "2 fortnights" is not a duration/,
    );
    expect(() => auditSchedules("s", cron("90 seconds"))).toThrow(/whole minutes/);
    expect(() => auditSchedules("s", cron("4 days"))).toThrow(/3\.5 days/);
    expect(auditSchedules("s", cron("25 hours")).expired.maxGapSeconds).toBe(90_000);
    expect(() => auditSchedules("s", { failing: "every 5 minutes" } as never)).toThrow(
      /stage s: schedules\.failing is every 5 minutes: give rate\(\.\.\.\) or cron\(\.\.\.\)/,
    );
    expect(() => durationSeconds("5 mins", "X")).toThrow(/^X: "5 mins" is not a duration/);
  });

  it("set the not-running alarm's period to a stage's cron gap, and fail the deploy without it", async () => {
    // A stage with a two-hourly cron: the alarm waits two of its 2-hour gaps, not two hours.
    const twoHourly = { enabled: true, expired: { schedule: "cron(0 */2 * * ? *)", maxGap: "2 hours" } };
    const r = await recordSstConfig("twohourly", {
      stages: { stages: { twohourly: { schedules: twoHourly, ...TELLS } } },
    });
    expect(r.named("aws.cloudwatch.MetricAlarm", "ExpiredNotRunning").args).toMatchObject({
      period: 7_200,
      evaluationPeriods: 2,
    });
    expect(r.named("sst.aws.CronV2", "AuditExpired").args.schedule).toBe("cron(0 */2 * * ? *)");
    const bare = { stages: { bare: { schedules: { enabled: true, expired: "cron(0 */2 * * ? *)" } } } };
    await expect(recordSstConfig("bare", { stages: bare })).rejects.toThrow(
      /stages\.bare\.schedules\.expired: expected "rate\(15 minutes\)", or \{ "schedule": "cron\(\.\.\.\)", "maxGap": "2 hours" \}/,
    );
  });
});
