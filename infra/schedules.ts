// When each audit runs, per stage, and the longest gap between two runs its not-running alarm
// waits for. Pure (no SST globals): sst.config.ts and test/unit/infra/schedules.test.ts import it.

import { durationSeconds } from "./duration.ts";

/** An SST-style duration: "90 seconds", "15 minutes", "2 hours", "1 day". */
type Duration =
  `${number} ${"second" | "seconds" | "minute" | "minutes" | "hour" | "hours" | "day" | "days"}`;

/**
 * One audit's schedule on a stage: a `rate(...)`, whose period is its gap, or a `cron(...)` with
 * the longest gap between two of its runs (an irregular cron, `0 8,12 * * ? *`, has no single
 * period, and a daily cron in a timezone with summer time has a 25-hour gap once a year).
 */
export type AuditSchedule = `rate(${string})` | { schedule: `cron(${string})`; maxGap: Duration };

/** A stage's schedules (each audit's default where not given) and their timezone (default UTC). */
export interface StageSchedules {
  failing?: AuditSchedule;
  expired?: AuditSchedule;
  applications?: AuditSchedule;
  timezone?: string;
}

/**
 * Where the audits run on schedule. A stage not listed (dev, a developer's own) does not poll KEB
 * unless `FLEET_AUDITOR_SCHEDULES=on` at deploy time.
 */
export const SCHEDULED_STAGES: Record<string, StageSchedules> = {
  prod: {},
  production: {},
  staging: { failing: "rate(30 minutes)" },
};

const DEFAULTS: Required<Omit<StageSchedules, "timezone">> = {
  failing: "rate(15 minutes)",
  expired: { schedule: "cron(0 * * * ? *)", maxGap: "1 hour" },
  applications: "rate(5 minutes)",
};

/** The function each audit runs in, as its metrics' `service` dimension names it. */
const SERVICES = { failing: "audit", expired: "audit", applications: "applications-audit" } as const;

/** One audit as deployed: its expression, its longest gap between runs, its metrics' service. */
export interface DeployedSchedule {
  schedule: string;
  maxGapSeconds: number;
  service: string;
}

// CloudWatch counts periods in whole minutes, and evaluates at most 7 days (1 day below an hour's
// period): the not-running alarm looks at two gaps.
const MAX_GAP_SECONDS = 302_400;

/**
 * Each audit's schedule on `stage`, its defaults filled in. Throws, naming the setting, for a cron
 * without its `maxGap`, an expression that is neither `rate(...)` nor `cron(...)`, or a gap the
 * not-running alarm cannot watch: a deploy fails rather than raise a false alarm every period or
 * none at all.
 */
export function auditSchedules(
  stage: string,
  settings: StageSchedules = {},
): Record<keyof typeof DEFAULTS, DeployedSchedule> {
  const deployed = (audit: keyof typeof DEFAULTS): DeployedSchedule => {
    const where = `SCHEDULED_STAGES.${stage}.${audit}`;
    const given = (settings[audit] ?? DEFAULTS[audit]) as unknown;
    const { schedule, maxGap } =
      typeof given === "string"
        ? { schedule: given, maxGap: undefined }
        : (given as { schedule: string; maxGap?: string });
    let gap: number;
    if (schedule.startsWith("cron(")) {
      if (maxGap === undefined)
        throw new Error(
          `${where} is ${schedule}: a cron schedule needs the longest gap between two of its runs, for its not-running alarm: { schedule: "${schedule}", maxGap: "2 hours" }`,
        );
      gap = durationSeconds(maxGap, `${where}.maxGap`);
    } else if (schedule.startsWith("rate(")) {
      gap = durationSeconds(schedule.slice("rate(".length, -1), where);
    } else {
      throw new Error(`${where} is ${schedule}: give rate(...) or cron(...)`);
    }
    if (gap % 60 !== 0 || gap < 60 || gap > MAX_GAP_SECONDS)
      throw new Error(
        `${where}: a gap of ${gap} s cannot be watched: whole minutes, from 1 minute to 3.5 days`,
      );
    return { schedule, maxGapSeconds: gap, service: SERVICES[audit] };
  };
  return {
    failing: deployed("failing"),
    expired: deployed("expired"),
    applications: deployed("applications"),
  };
}
