import { type Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import { type RunSummary, TRANSITION_KINDS } from "@fleet-auditor/audit";

/** EMF metrics of one audit run: flagged, transitions by kind, pages, duration, incomplete scans. */
export function recordRunMetrics(metrics: Metrics, summary: RunSummary): void {
  metrics.addDimension("audit", summary.audit);
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
  metrics.addMetric(
    "IncompleteScans",
    MetricUnit.Count,
    summary.status === "completed" && !summary.complete ? 1 : 0,
  );
  metrics.addMetric("PublishFailures", MetricUnit.Count, summary.notified.failed);
  metrics.addMetric("Suppressed", MetricUnit.Count, summary.notified.suppressed);
}
