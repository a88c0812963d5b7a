// The incident summary's schedule on a stage (its `incidentSummary` in stages.json, defaults
// filled in). Pure (no SST globals): infra/incident-summary.ts and test/unit/sst-wiring.test.ts
// import it.

import type { StageSettings } from "./stage-schema.ts";

/** When a summary goes out if the stage says only `true`: Mondays at 08:00. */
const DEFAULT_SCHEDULE = "cron(0 8 ? * MON *)";
const DEFAULT_WINDOW = "7d";
// The audit functions' INCIDENT_RETENTION_DAYS when the stage sets no incidentRetentionDays.
const DEFAULT_RETENTION_DAYS = 90;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** The summary's schedule as deployed: its expression, time zone, and the event it sends. */
export interface SummarySchedule {
  schedule: string;
  timezone: string;
  event: { report: { since: string; publish: true; until: string } };
}

/**
 * The stage's summary schedule, its defaults filled in; undefined when the stage asks for none.
 * The window ends at the schedule's time (`until`), so that a delivery the scheduler retries
 * summarises the week it was meant for. Throws, naming the setting, for a window longer than the
 * stage keeps incident records (`incidentRetentionDays`): the function would refuse every one.
 */
export function incidentSummarySchedule(stage: string, settings: StageSettings): SummarySchedule | undefined {
  const given = settings.incidentSummary;
  if (given === undefined) return undefined;
  const own = given === true ? {} : given;
  const since = own.since ?? DEFAULT_WINDOW;
  const retention = settings.incidentRetentionDays ?? DEFAULT_RETENTION_DAYS;
  const windowMs = Number(since.slice(0, -1)) * UNIT_MS[since.slice(-1) as keyof typeof UNIT_MS];
  if (windowMs > retention * UNIT_MS.d)
    throw new Error(
      `stage ${stage}: incidentSummary.since is ${since}, longer than the ${retention} days incident records are kept (incidentRetentionDays)`,
    );
  return {
    schedule: own.schedule ?? DEFAULT_SCHEDULE,
    timezone: own.timezone ?? settings.schedules?.timezone ?? "UTC",
    event: { report: { since, publish: true, until: "<aws.scheduler.scheduled-time>" } },
  };
}
