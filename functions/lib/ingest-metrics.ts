import { type Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import type { IngestCounts } from "@fleet-auditor/runner";

/** EMF metrics of one SQS batch: applied, stale, duplicate, quarantined, failed, deferred (deadline). */
export function recordIngestMetrics(metrics: Metrics, counts: IngestCounts): void {
  metrics.addMetric("Records", MetricUnit.Count, counts.records);
  metrics.addMetric("Applied", MetricUnit.Count, counts.applied);
  metrics.addMetric("Stale", MetricUnit.Count, counts.stale);
  metrics.addMetric("Duplicate", MetricUnit.Count, counts.duplicate);
  metrics.addMetric("Quarantined", MetricUnit.Count, counts.quarantined);
  metrics.addMetric("Failed", MetricUnit.Count, counts.failed);
  metrics.addMetric("Deferred", MetricUnit.Count, counts.deferred);
}
