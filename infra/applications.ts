// KubeEdge Application status: the status table, the queue the metaserver feed fills and the
// function that consumes it, console queries of the table, and the applications audit, which reads
// the table's watched index (never a scan) instead of KEB, so it holds no KEB credential.

import { statusTableDefinition } from "../packages/store/src/status-table.ts";
import {
  type alarmTo,
  functionAlarms,
  queueNotEmpty,
  queueStalled,
  reservedConcurrency,
  watchedFunction,
} from "./alarms.ts";
import { auditRunAccess, auditRunEnvironment } from "./audit.ts";
import { fieldsOf, globalIndexesOf } from "./dynamo-indexes.ts";
import type { Failures } from "./failures.ts";
import type { StageSettings } from "./stage-schema.ts";
import type { Topics } from "./topics.ts";

/** What the applications part declares that others use or the stage outputs. */
export interface Applications {
  statusTable: sst.aws.Dynamo;
  queue: sst.aws.Queue;
  dlq: sst.aws.Queue;
  statusQuery: sst.aws.Function;
  audit: sst.aws.Function;
}

/** The status table, its queue, and the three functions around it, with their alarms. */
export function applications(deps: {
  protectedStage: boolean;
  auditTable: sst.aws.Dynamo;
  topics: Topics;
  failures: Failures;
  settings: StageSettings;
  alarm: ReturnType<typeof alarmTo>;
}): Applications {
  const { protectedStage, alarm } = deps;
  // KubeEdge Application status: one row per Application, declared from the definition the store
  // creates tables from (packages/store/src/status-table.ts: its indexes and why), with `byNodeId`
  // only on a stage whose `nodeIndex` asks for it (half a write unit per message, for `apps status
  // --node` alone, which otherwise scans), and the retiring indexes today's replace only on a stage
  // whose `retiringIndexes` says it had them, kept until its new ones are ACTIVE
  // (docs/kubeedge.md#changing-an-index): each writes 1.5 units more per message, so a fresh stage
  // never gets them. Capacity model: docs/capacity.md#capacity.
  const statusDefinition = statusTableDefinition("ApplicationStatus", {
    nodeIndex: deps.settings.nodeIndex === true,
    retiringIndexes: deps.settings.retiringIndexes === true,
  });
  const statusTable = new sst.aws.Dynamo("ApplicationStatus", {
    fields: fieldsOf(statusDefinition),
    primaryIndex: { hashKey: "id" },
    globalIndexes: globalIndexesOf(statusDefinition.GlobalSecondaryIndexes ?? []),
    ttl: "ttl",
    deletionProtection: protectedStage,
  });
  const applicationsEnv = { STATUS_TABLE: statusTable.name };
  const { queue, dlq } = ingest(statusTable, applicationsEnv, alarm);

  // Console queries of the status table: { "node": …, "status": …, "since": … } or { "quarantine": true }.
  const statusQueryArgs = {
    handler: "functions/application-status.handler",
    timeout: "30 seconds",
    permissions: [
      { actions: ["dynamodb:Query"], resources: [$interpolate`${statusTable.arn}/index/*`] },
      // Rows in no index (Approved, Completed; a node's, without byNodeId) are scanned up to the
      // limit; byWatch and byNodeId rows read whole.
      { actions: ["dynamodb:Scan", "dynamodb:BatchGetItem"], resources: [statusTable.arn] },
    ],
    environment: applicationsEnv,
  } satisfies sst.aws.FunctionArgs;
  const statusQuery = new sst.aws.Function("ApplicationStatusQuery", statusQueryArgs);
  functionAlarms(alarm, watchedFunction("ApplicationStatusQuery", statusQuery.name, statusQueryArgs, 0));

  // The applications audit: the same engine as the KEB audits.
  const auditArgs = {
    handler: "functions/applications-audit.handler",
    timeout: "2 minutes",
    memory: "512 MB",
    retries: 0,
    transform: deps.failures.destination,
    ...reservedConcurrency(deps.settings.reservedConcurrency !== false, 2),
    permissions: [
      ...auditRunAccess(deps.auditTable, deps.topics),
      { actions: ["dynamodb:Query"], resources: [$interpolate`${statusTable.arn}/index/*`] },
      deps.failures.send,
    ],
    environment: {
      ...auditRunEnvironment(deps.auditTable, deps.topics, deps.settings),
      STATUS_TABLE: statusTable.name,
      LEASE_MINUTES: "3",
    },
  } satisfies sst.aws.FunctionArgs;
  const audit = new sst.aws.Function("ApplicationsAudit", auditArgs);
  functionAlarms(alarm, watchedFunction("ApplicationsAudit", audit.name, auditArgs, 30));
  return { statusTable, queue, dlq, statusQuery, audit };
}

/**
 * The Applications queue, its DLQ, and the function that writes each message's Application into
 * the status table, with the alarms of a queue nothing consumes and of a malformed feed.
 */
function ingest(
  statusTable: sst.aws.Dynamo,
  environment: Record<string, $util.Input<string>>,
  alarm: ReturnType<typeof alarmTo>,
): { queue: sst.aws.Queue; dlq: sst.aws.Queue } {
  // Messages that failed 5 receives (transient failures only; unparseable ones are quarantined).
  // Kept 14 days: SQS counts a message's age from its first enqueue, not from its move here.
  const dlq = new sst.aws.Queue("ApplicationsDlq", {
    visibilityTimeout: "5 minutes",
    transform: { queue: { messageRetentionSeconds: 14 * 86_400 } },
  });
  // At least 6x the function timeout (1 minute) plus the batch window (5 s), as AWS advises, so a
  // batch is never redelivered while it runs. Kept 14 days, not SQS's default 4: if nothing
  // consumes it (ApplicationsQueueStalled), messages wait for the fix instead of expiring.
  const queue = new sst.aws.Queue("Applications", {
    visibilityTimeout: "7 minutes",
    dlq: { queue: dlq.arn, retry: 5 },
    transform: { queue: { messageRetentionSeconds: 14 * 86_400 } },
  });
  // A batch of 100 messages is about 100 conditional writes, 8 at a time: about 0.1 s on DynamoDB
  // (1 s on dynalite), under 2 % of the minute. The handler stops writing 5 s before the timeout
  // and hands back what it did not write; each such record spends one of its 5 receives, so a
  // normal batch must never come near the deadline: only a throttled or unreachable table does.
  const args = {
    handler: "functions/applications.handler",
    timeout: "1 minute",
    memory: "512 MB",
    // GetItem: a refused write reads the winner's msg_id (duplicate or stale) when the refusal
    // does not carry the old item (DynamoDB's does; an emulator's may not).
    permissions: [
      {
        actions: ["dynamodb:UpdateItem", "dynamodb:PutItem", "dynamodb:GetItem"],
        resources: [statusTable.arn],
      },
    ],
    environment,
  } satisfies sst.aws.FunctionArgs;
  const consumer = queue.subscribe(args, {
    batch: { size: 100, window: "5 seconds", partialResponses: true },
    // Without a cap, Lambda scales an SQS source to hundreds of concurrent batches on a backlog or
    // a DLQ redrive, each 8 writes in flight, on 32 byWatch shard keys: throttling, and every
    // throttled record spends one of its 5 receives. 10 batches (80 writes in flight, about 10,000
    // messages a second) is what the shards are sized for (docs/capacity.md#capacity).
    transform: { eventSourceMapping: { scalingConfig: { maximumConcurrency: 10 } } },
  });
  functionAlarms(alarm, watchedFunction("Applications", consumer.nodes.function.name, args, 5));
  queueNotEmpty(alarm, "ApplicationsDlqNotEmpty", dlq.nodes.queue.name, "Application messages in the DLQ");
  // A message retried 3 times (up to 3 × 7 minutes) leaves the metric; older than that, nothing
  // receives the queue.
  queueStalled(alarm, "ApplicationsQueueStalled", queue.nodes.queue.name, 30 * 60);
  // A malformed feed: every quarantined message is a write of its excerpt (and its index entry)
  // and a row the applications audit reads back, so a steady stream is a bill and a broken edge,
  // not noise. 300 in 5 minutes is one a second, twice in a row.
  const feed = { namespace: "FleetAuditor", dimensions: { service: "applications" }, statistic: "Sum" };
  alarm("ApplicationsQuarantining", {
    alarmDescription: "Application messages quarantined at more than one a second for 10 minutes",
    runbook: "applicationsquarantining",
    ...feed,
    metricName: "Quarantined",
    period: 300,
    evaluationPeriods: 2,
    datapointsToAlarm: 2,
    threshold: 300,
    comparisonOperator: "GreaterThanThreshold",
    treatMissingData: "notBreaching",
  });
  alarm("ApplicationsFailed", {
    alarmDescription: "Application status writes that failed (retried, then the DLQ)",
    runbook: "applicationsfailed",
    ...feed,
    metricName: "Failed",
    period: 300,
    evaluationPeriods: 1,
    threshold: 0,
    comparisonOperator: "GreaterThanThreshold",
    treatMissingData: "notBreaching",
  });
  return { queue, dlq };
}
