import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { DynamoStatusStore, documentClient } from "@fleet-auditor/store";
import { ApplicationsEnvSchema, batchDeadline, ingestBatch, parseConfig } from "@fleet-auditor/use-cases";
import type { SQSBatchResponse, SQSEvent } from "aws-lambda";
import { recordIngestMetrics } from "./lib/ingest-metrics.ts";
import { batchItemFailures, queuedMessages } from "./lib/sqs-event.ts";
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

export const handler = functionStack<SQSEvent, SQSBatchResponse>(logger, metrics).handler(
  async (event, context) => {
    const messages = queuedMessages(event);
    const { failedMessageIds, counts } = await ingestBatch(
      { store, log: logger, deadline: batchDeadline(context.getRemainingTimeInMillis()) },
      messages,
    );
    logger.info("batch processed", { ...counts });
    recordIngestMetrics(metrics, counts);
    return { batchItemFailures: batchItemFailures(messages, failedMessageIds) };
  },
);
