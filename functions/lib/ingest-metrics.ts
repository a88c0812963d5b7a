import { type Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import type { IngestCounts } from "@fleet-auditor/use-cases";

/**
 * EMF metrics of one SQS batch: what the alarms watch, `Failed` and `Quarantined`. Each is a
 * custom metric on the bill (docs/capacity.md#cost); the batch's other counts (records, applied, stale,
 * duplicate, deferred at the deadline) are fields of its "batch processed" log line.
 */
export function recordIngestMetrics(metrics: Metrics, counts: IngestCounts): void {
  metrics.addMetric("Quarantined", MetricUnit.Count, counts.quarantined);
  metrics.addMetric("Failed", MetricUnit.Count, counts.failed);
}
