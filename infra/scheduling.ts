// One EventBridge schedule per audit, declared on every stage and enabled only where stages.json
// schedules the stage, with the alarms of a scheduled audit that stops running or keeps failing.

import { type alarmTo, auditAlarms, queueNotEmpty } from "./alarms.ts";
import { auditSchedules, type DeployedSchedule } from "./schedules.ts";
import type { StageSettings } from "./stage-schema.ts";

/** The schedules, their DLQ, and (on a scheduled stage) each audit's alarms. */
export function auditScheduling(deps: {
  settings: StageSettings;
  /** The function each audit runs in. */
  functions: { audit: sst.aws.Function; applicationsAudit: sst.aws.Function };
  alarm: ReturnType<typeof alarmTo>;
}): { dlq: sst.aws.Queue; schedules: Record<string, DeployedSchedule> } {
  const { enabled, ...given } = deps.settings.schedules ?? { enabled: false };
  // Schedule deliveries the scheduler could not make land here: an Invoke call refused (the
  // function missing, its permission gone, the Invoke API's own request rate). A throttled run is
  // not one: Lambda takes the event and retries it (docs/operate.md#scheduledlqnotempty).
  const dlq = new sst.aws.Queue("ScheduleDlq", {
    transform: { queue: { messageRetentionSeconds: 14 * 86_400 } },
  });
  queueNotEmpty(deps.alarm, "ScheduleDlqNotEmpty", dlq.nodes.queue.name, "schedule deliveries that failed");
  const schedules = auditSchedules($app.stage, given);
  // The scheduled time keys idempotency of retried deliveries.
  for (const [name, { schedule }] of Object.entries(schedules)) {
    new sst.aws.CronV2(`Audit${name[0]?.toUpperCase()}${name.slice(1)}`, {
      schedule: schedule as `rate(${string})` | `cron(${string})`,
      timezone: given.timezone ?? "UTC",
      enabled,
      function: name === "applications" ? deps.functions.applicationsAudit : deps.functions.audit,
      retries: 2,
      dlq: dlq.arn,
      event: { audit: name, scheduledTime: "<aws.scheduler.scheduled-time>" },
    });
  }
  // A stage that does not run on schedule has nothing to miss.
  if (enabled)
    for (const [name, schedule] of Object.entries(schedules)) auditAlarms(deps.alarm, name, schedule);
  return { dlq, schedules };
}
