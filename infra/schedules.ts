// When each audit runs on a stage (its `schedules` in stages.json, defaults filled in), and the
// longest gap between two runs its not-running alarm waits for. Pure (no SST globals):
// infra/scheduling.ts and test/unit/infra/schedules.test.ts import it.

import { durationSeconds } from "./duration.ts";
import type { StageSettings } from "./stage-schema.ts";

/** One audit's schedule: a `rate(...)`, or a `cron(...)` with its longest gap between two runs. */
export type AuditSchedule = NonNullable<StageSchedules["failing"]>;

/** A stage's schedules as `stages.json` gives them (`schedules`), without the on/off switch. */
export type StageSchedules = Omit<NonNullable<StageSettings["schedules"]>, "enabled">;

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
    const where = `stage ${stage}: schedules.${audit}`;
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
