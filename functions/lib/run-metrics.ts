import { type Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import { type RunSummary, TRANSITION_KINDS } from "@fleet-auditor/audit";

/**
 * EMF metrics of one audit run. Each is a custom metric on the bill (docs/capacity.md#cost), so only
 * what the alarms watch and the one figure a dashboard shows: `Runs` (the missing-run alarm's
 * signal), `IncompleteScans`, `PublishFailures` and `Flagged`; the run's other figures are log
 * fields (`runLogFields`). A `duplicate` run (a retried schedule) or a `skipped` one did nothing
 * of its own: it counts `Runs` 0, never again the figures of the run it repeats. A
 * `not-configured` run (a secret without a value yet) records nothing: the `NotRunning` alarm of
 * a stage deployed and not configured stays in `INSUFFICIENT_DATA`, where it started, and says
 * nothing until the first configured run (`Runs` 0 would make it fire every two periods).
 */
export function recordRunMetrics(metrics: Metrics, summary: RunSummary): void {
  if (summary.status === "not-configured") return;
  metrics.addDimension("audit", summary.audit);
  if (summary.status !== "completed") {
    metrics.addMetric("Runs", MetricUnit.Count, 0);
    return;
  }
  metrics.addMetric("Runs", MetricUnit.Count, 1);
  metrics.addMetric("Flagged", MetricUnit.Count, summary.flagged);
  metrics.addMetric("IncompleteScans", MetricUnit.Count, summary.complete ? 0 : 1);
  metrics.addMetric("PublishFailures", MetricUnit.Count, summary.notified.failed);
}

/**
 * The run's figures as fields of its "audit run finished" log line, for Logs Insights: its
 * status, transitions by kind, pages, duration and suppressed messages (a duplicate or skipped
 * run: its status alone).
 */
export function runLogFields(summary: RunSummary): Record<string, string | number | boolean> {
  const fields: Record<string, string | number | boolean> = {
    runId: summary.runId,
    status: summary.status,
    complete: summary.complete,
    transitions: summary.transitions.length,
  };
  if (summary.status !== "completed") return fields;
  for (const kind of TRANSITION_KINDS)
    fields[`transitions_${kind}`] = summary.transitions.filter((t) => t.kind === kind).length;
  return {
    ...fields,
    flagged: summary.flagged,
    pages: summary.queries.reduce((n, q) => n + q.pages, 0),
    durationMs: summary.durationMs,
    suppressed: summary.notified.suppressed,
  };
}
