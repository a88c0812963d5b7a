// The stage's CloudWatch dashboard: per audit, its runs, flagged findings, incomplete scans and
// publish failures (the metrics the handlers print as EMF, with the alarms' dimensions), and the
// Applications queue's age beside the applications audit. One dashboard a stage: CloudWatch
// charges 3 USD a month for each beyond an account's first three.

import type { DeployedSchedule } from "./schedules.ts";

type Metric = [string, string, ...string[]];

/** One line of widgets: a title, the metrics, each summed over the audit's gap. */
function widget(title: string, region: string, period: number, metrics: Metric[], x: number, y: number) {
  return {
    type: "metric",
    x,
    y,
    width: 12,
    height: 6,
    properties: { title, region, period, stat: "Sum", view: "timeSeries", stacked: false, metrics },
  };
}

/** The dashboard's body (CloudWatch's JSON), pure: the audits as deployed, the queue's name. */
function dashboardBody(deps: {
  region: string;
  audits: Record<string, DeployedSchedule>;
  applicationsQueue: string;
}) {
  const widgets = Object.entries(deps.audits).flatMap(([audit, s], row) => {
    const of = (metric: string): Metric => ["FleetAuditor", metric, "service", s.service, "audit", audit];
    const y = row * 6;
    const problems = [of("IncompleteScans"), of("PublishFailures")];
    return [
      widget(`${audit}: runs and flagged`, deps.region, s.maxGapSeconds, [of("Runs"), of("Flagged")], 0, y),
      audit === "applications"
        ? widget(
            `${audit}: incomplete scans, publish failures, queue age (s)`,
            deps.region,
            s.maxGapSeconds,
            [
              ...problems,
              [
                "AWS/SQS",
                "ApproximateAgeOfOldestMessage",
                "QueueName",
                deps.applicationsQueue,
                // The queue's age is a maximum, on an axis of its own.
                { stat: "Maximum", yAxis: "right" } as unknown as string,
              ],
            ],
            12,
            y,
          )
        : widget(
            `${audit}: incomplete scans, publish failures`,
            deps.region,
            s.maxGapSeconds,
            problems,
            12,
            y,
          ),
    ];
  });
  return { widgets };
}

/** The stage's dashboard, `fleet-auditor-<stage>`. */
export function operationsDashboard(deps: {
  region: string;
  audits: Record<string, DeployedSchedule>;
  applicationsQueue: $util.Input<string>;
}): aws.cloudwatch.Dashboard {
  return new aws.cloudwatch.Dashboard("Dashboard", {
    dashboardName: `fleet-auditor-${$app.stage}`,
    // The queue's name is an output: $jsonStringify resolves it inside the body.
    dashboardBody: $jsonStringify(
      dashboardBody({ ...deps, applicationsQueue: deps.applicationsQueue as string }),
    ),
  });
}
