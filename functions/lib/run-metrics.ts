import { type Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import { type RunSummary, TRANSITION_KINDS } from "@fleet-auditor/audit";

/**
 * EMF metrics of one audit run: `Runs` (the missing-run alarm's signal), flagged, transitions by
 * kind, pages, duration, incomplete scans, publish failures. A `duplicate` run (a retried
 * schedule) or a `skipped` one did nothing of its own: it counts as `DuplicateRuns` or
 * `SkippedRuns` alone, never again the figures of the run it repeats.
 */
export function recordRunMetrics(metrics: Metrics, summary: RunSummary): void {
  metrics.addDimension("audit", summary.audit);
  if (summary.status !== "completed") {
    metrics.addMetric(summary.status === "duplicate" ? "DuplicateRuns" : "SkippedRuns", MetricUnit.Count, 1);
    return;
  }
  metrics.addMetric("Runs", MetricUnit.Count, 1);
  metrics.addMetric("Flagged", MetricUnit.Count, summary.flagged);
  for (const kind of TRANSITION_KINDS) {
    metrics.addMetric(
      `Transitions_${kind}`,
      MetricUnit.Count,
      summary.transitions.filter((t) => t.kind === kind).length,
    );
  }
  metrics.addMetric(
    "Pages",
    MetricUnit.Count,
    summary.queries.reduce((n, q) => n + q.pages, 0),
  );
  metrics.addMetric("DurationMs", MetricUnit.Milliseconds, summary.durationMs);
  metrics.addMetric("IncompleteScans", MetricUnit.Count, summary.complete ? 0 : 1);
  metrics.addMetric("PublishFailures", MetricUnit.Count, summary.notified.failed);
  metrics.addMetric("Suppressed", MetricUnit.Count, summary.notified.suppressed);
}
