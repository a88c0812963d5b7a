import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import {
  ApplicationsEnvSchema,
  batchItemFailures,
  ingestBatch,
  parseConfig,
  queuedMessages,
} from "@fleet-auditor/runner";
import { DynamoStatusStore, documentClient } from "@fleet-auditor/store";
import type { Context, SQSBatchResponse, SQSEvent } from "aws-lambda";
import { recordIngestMetrics } from "./lib/ingest-metrics.ts";
import { functionStack } from "./lib/stack.ts";

// Cold start: configuration (fails here, naming the variable), client and store, once.
const env = parseConfig(ApplicationsEnvSchema, process.env);
const logger = new Logger({ serviceName: "fleet-auditor" });
const metrics = new Metrics({ namespace: "FleetAuditor", serviceName: "applications" });
const store = new DynamoStatusStore({
  client: documentClient(),
  tableName: env.STATUS_TABLE,
  finishedTtlHours: env.FINISHED_TTL_HOURS,
  unfinishedTtlDays: env.UNFINISHED_TTL_DAYS,
  quarantineTtlDays: env.QUARANTINE_TTL_DAYS,
});

/**
 * Time kept back from the function's timeout: once only this much is left, no write starts, the
 * writes in flight are abandoned, and the records not seen written are handed back (partial batch
 * response). Enough to answer and flush the metrics; a normal batch ends long before.
 */
const DEADLINE_MARGIN_MS = 5_000;

/** Aborted when the batch must stop writing: already, when less than the margin is left. */
function deadline(context: Context): AbortSignal {
  const ms = context.getRemainingTimeInMillis() - DEADLINE_MARGIN_MS;
  return ms > 0 ? AbortSignal.timeout(ms) : AbortSignal.abort(new DOMException("deadline", "TimeoutError"));
}

/**
 * SQS → status table with partial batch responses. Not Powertools' BatchProcessor: it handles
 * records one by one, and this handler folds the whole batch to one write per Application ID.
 */
export const handler = functionStack<SQSEvent, SQSBatchResponse>(logger, metrics).handler(
  async (event, context) => {
    const messages = queuedMessages(event);
    const { failedMessageIds, counts } = await ingestBatch(
      { store, log: logger, deadline: deadline(context) },
      messages,
    );
    logger.info("batch processed", { ...counts });
    recordIngestMetrics(metrics, counts);
    return { batchItemFailures: batchItemFailures(messages, failedMessageIds) };
  },
);
