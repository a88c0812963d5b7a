import { type Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { DynamoMessageOrder, documentClient } from "@fleet-auditor/store";
import type { MessageOrder } from "@fleet-auditor/use-cases";

/**
 * The Slack or pager function's order of messages per key, in the audit table it is given
 * (`AUDIT_TABLE`; store's `DynamoMessageOrder`), or none without one: messages are then sent in
 * the order they arrive.
 */
export function messageOrder(
  auditTable: string | undefined,
  receiver: "slack" | "pager",
  /** The function's DocumentClient, when it has one already (the bot's threads). */
  client?: DynamoDBDocumentClient,
): MessageOrder | undefined {
  if (!auditTable) return undefined;
  return new DynamoMessageOrder({ client: client ?? documentClient(), tableName: auditTable, receiver });
}

/**
 * The EMF metric `Dropped` (messages older than, or the same as, the last applied under their
 * key), printed only in an invocation that dropped some: a metric nobody's invocation prints is
 * no custom metric on the bill (docs/capacity.md#cost), and no empty-metrics warning is logged.
 */
export function recordDropped(metrics: Metrics, dropped: number): void {
  if (dropped === 0) return;
  metrics.addMetric("Dropped", MetricUnit.Count, dropped);
  metrics.publishStoredMetrics();
}
