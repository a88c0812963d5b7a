// The weekly incident summary: one EventBridge schedule that asks the Audit function for the
// window's summary and has it published to the Alerts topic, declared only where the stage's
// `incidentSummary` asks for one (`summary-schedule.ts`).

import type { StageSettings } from "./stage-schema.ts";
import { incidentSummarySchedule } from "./summary-schedule.ts";

/**
 * The summary's schedule on the Audit function, where the stage asks for one, its failed
 * deliveries in the audits' schedule DLQ. A summary the function cannot publish fails the
 * invocation, which goes to the Failures destination like a failed run.
 */
export function incidentSummaryScheduling(deps: {
  settings: StageSettings;
  audit: sst.aws.Function;
  dlq: sst.aws.Queue;
}): void {
  const summary = incidentSummarySchedule($app.stage, deps.settings);
  if (!summary) return;
  new sst.aws.CronV2("IncidentSummary", {
    schedule: summary.schedule as `rate(${string})` | `cron(${string})`,
    timezone: summary.timezone,
    function: deps.audit,
    retries: 2,
    dlq: deps.dlq.arn,
    event: summary.event,
  });
}
