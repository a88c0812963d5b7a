/// <reference path="../.sst/platform/config.d.ts" />
// The CloudWatch alarms of a stage, all to the Ops topic. Each has a runbook entry in
// docs/operate.md ("Alarms and their runbooks"), a heading whose section names the alarm; its
// description ends with a link to that heading's anchor. test/unit/sst-wiring.test.ts holds every
// declared alarm to that.

import { durationSeconds } from "./duration.ts";
import type { DeployedSchedule } from "./schedules.ts";

/**
 * A function's reserved concurrency, unless the stage's `reservedConcurrency` is false: an account
 * whose Lambda concurrency quota is too small (AWS keeps 100 unreserved; a new account may have
 * 10 in all) refuses any reservation, and the deploy fails there.
 */
export function reservedConcurrency(reserve: boolean, n: number): { concurrency?: { reserved: number } } {
  return reserve ? { concurrency: { reserved: n } } : {};
}

/** A function to watch, as infra/*.ts declared it. */
export interface WatchedFunction {
  /** Prefix of its alarms' names: `Audit` gives AuditErrors, AuditDuration, AuditThrottles. */
  name: string;
  functionName: $util.Input<string>;
  /** Its declared timeout, in seconds. */
  timeoutSeconds: number;
  /**
   * How long before its timeout it cuts itself short (`runDeadline`, `batchDeadline`, the Slack
   * and PagerDuty margins), in seconds: a Duration alarm past that point would never fire.
   */
  cutsShortSeconds: number;
  /** Its reserved concurrency, when it has one: what it is throttled at. */
  reservedConcurrency?: number;
}

/**
 * A function to watch, from its declared arguments: its timeout (SST's default 20 seconds when
 * not given), its reserved concurrency, and how long before its timeout it stops by itself
 * (packages/use-cases/src/deadline.ts; the Slack and PagerDuty functions' 2 s margins).
 */
export function watchedFunction(
  name: string,
  functionName: $util.Input<string>,
  args: { timeout?: unknown; concurrency?: unknown },
  cutsShortSeconds: number,
): WatchedFunction {
  const reserved = (args.concurrency as { reserved?: number } | undefined)?.reserved;
  return {
    name,
    functionName,
    timeoutSeconds: durationSeconds(String(args.timeout ?? "20 seconds"), `${name}'s timeout`),
    cutsShortSeconds,
    ...(reserved !== undefined ? { reservedConcurrency: reserved } : {}),
  };
}

type AlarmArgs = Omit<
  aws.cloudwatch.MetricAlarmArgs,
  "alarmActions" | "okActions" | "insufficientDataActions"
> & {
  /** The anchor of the alarm's runbook entry in docs/operate.md (GitHub's anchor of its heading). */
  runbook: string;
  /**
   * Tell Ops when the alarm has no data at all (INSUFFICIENT_DATA): for a metric whose absence is
   * the trouble (no run), and which a new alarm starts without, with no message.
   */
  noDataTellsOps?: boolean;
};

/** Where the runbooks are, from the repository's root; `docsUrl` is where docs/ is served. */
function runbookPage(docsUrl: string | undefined): string {
  return docsUrl ? `${docsUrl.replace(/\/+$/, "")}/operate.md` : "docs/operate.md";
}

// Alarms on a count: any in five minutes; no data is nothing happening.
const anyInFiveMinutes = {
  period: 300,
  evaluationPeriods: 1,
  threshold: 0,
  comparisonOperator: "GreaterThanThreshold",
  treatMissingData: "notBreaching",
} as const;

/**
 * An alarm to `ops`, alarming and clearing, its description naming the stage and linking to its
 * runbook: where the stage's `docsUrl` serves docs/, else the repository-relative page (the
 * repository names no URL of its own to default to).
 */
export function alarmTo(ops: $util.Input<string>, docsUrl?: string) {
  const page = runbookPage(docsUrl);
  return (name: string, { runbook, noDataTellsOps, ...args }: AlarmArgs): aws.cloudwatch.MetricAlarm =>
    new aws.cloudwatch.MetricAlarm(name, {
      ...args,
      alarmDescription: `fleet-auditor ${$app.stage}: ${args.alarmDescription} (runbook: ${page}#${runbook})`,
      alarmActions: [ops],
      okActions: [ops],
      ...(noDataTellsOps ? { insufficientDataActions: [ops] } : {}),
    });
}

/**
 * A function's alarms: Errors (any in 5 minutes); Duration, when a run passes 80 % of the time it
 * allows itself (the timeout less the margin it stops at), before runs end cut short; Throttles,
 * when it has reserved concurrency, throttled in each of three 5-minute periods. An asynchronous
 * event Lambda throttles is kept and retried for up to its maximum age (an hour here) with nothing
 * in Errors; a burst that clears in minutes is what reserved concurrency is for, 15 minutes of it
 * is not.
 */
export function functionAlarms(alarm: ReturnType<typeof alarmTo>, f: WatchedFunction): void {
  const metric = (metricName: string, statistic: string) => ({
    namespace: "AWS/Lambda",
    metricName,
    dimensions: { FunctionName: f.functionName },
    statistic,
  });
  alarm(`${f.name}Errors`, {
    alarmDescription: `${f.name} function errors`,
    runbook: "function-errors",
    ...metric("Errors", "Sum"),
    ...anyInFiveMinutes,
  });
  const allowed = f.timeoutSeconds - f.cutsShortSeconds;
  alarm(`${f.name}Duration`, {
    runbook: "function-duration",
    alarmDescription: `${f.name} ran longer than 80 % of the ${allowed} s it allows itself (timeout ${f.timeoutSeconds} s)`,
    ...metric("Duration", "Maximum"),
    ...anyInFiveMinutes,
    threshold: Math.round(allowed * 800),
  });
  if (f.reservedConcurrency !== undefined)
    alarm(`${f.name}Throttles`, {
      runbook: "throttles",
      alarmDescription: `${f.name} throttled (reserved concurrency ${f.reservedConcurrency}) for 15 minutes`,
      ...metric("Throttles", "Sum"),
      ...anyInFiveMinutes,
      evaluationPeriods: 3,
      datapointsToAlarm: 3,
    });
}

/** A queue that should be empty: any visible message in five minutes. */
export function queueNotEmpty(
  alarm: ReturnType<typeof alarmTo>,
  name: string,
  queueName: $util.Input<string>,
  what: string,
): void {
  alarm(name, {
    alarmDescription: what,
    runbook: name.toLowerCase(),
    namespace: "AWS/SQS",
    metricName: "ApproximateNumberOfMessagesVisible",
    dimensions: { QueueName: queueName },
    statistic: "Maximum",
    ...anyInFiveMinutes,
  });
}

/**
 * A consumed queue whose oldest message is older than `olderThanSeconds`: its consumer stopped
 * (event source mapping disabled, function deleted, `sqs:ReceiveMessage` denied), which raises no
 * error, fails no record and fills no DLQ. SQS leaves out of this metric a message received three
 * times and not deleted, so retries alone never raise it; with no message in the queue it reports
 * nothing, which is no breach.
 */
export function queueStalled(
  alarm: ReturnType<typeof alarmTo>,
  name: string,
  queueName: $util.Input<string>,
  olderThanSeconds: number,
): void {
  alarm(name, {
    runbook: name.toLowerCase(),
    alarmDescription: `a message waited over ${olderThanSeconds / 60} minutes in the queue: nothing consumes it`,
    namespace: "AWS/SQS",
    metricName: "ApproximateAgeOfOldestMessage",
    dimensions: { QueueName: queueName },
    statistic: "Maximum",
    ...anyInFiveMinutes,
    threshold: olderThanSeconds,
  });
}

/**
 * An audit's alarms: NotRunning (runs printed, none completed, in two of its longest gaps: ALARM;
 * no run printed at all: INSUFFICIENT_DATA, which tells Ops too), IncompleteScans and
 * PublishFailures (two such gaps in a row). NotRunning does not treat missing data as breaching:
 * a fresh deploy's alarm has no data yet and would fire before the first run; it starts in
 * INSUFFICIENT_DATA, which is no transition and sends nothing, and leaves it at the first run.
 */
export function auditAlarms(alarm: ReturnType<typeof alarmTo>, audit: string, s: DeployedSchedule): void {
  const metric = (metricName: string) => ({
    namespace: "FleetAuditor",
    metricName,
    dimensions: { service: s.service, audit },
    statistic: "Sum",
    period: s.maxGapSeconds,
    evaluationPeriods: 2,
  });
  const Name = `${audit[0]?.toUpperCase()}${audit.slice(1)}`;
  alarm(`${Name}NotRunning`, {
    runbook: "missing-runs",
    alarmDescription: `no ${audit} audit run in two of its schedule's longest gaps (${s.maxGapSeconds / 60} minutes)`,
    ...metric("Runs"),
    threshold: 1,
    comparisonOperator: "LessThanThreshold",
    treatMissingData: "missing",
    noDataTellsOps: true,
  });
  const runbooks = { IncompleteScans: "incomplete-scans", PublishFailures: "publish-failures" };
  for (const [metricName, runbook] of Object.entries(runbooks)) {
    alarm(`${Name}${metricName}`, {
      alarmDescription: `${metricName} in the ${audit} audit for two periods`,
      runbook,
      ...metric(metricName),
      datapointsToAlarm: 2,
      threshold: 0,
      comparisonOperator: "GreaterThanThreshold",
      treatMissingData: "notBreaching",
    });
  }
}
