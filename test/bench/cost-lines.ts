// The reference month's lines: what `npm run bench -- cost` measured, scaled by the model
// (cost-model.ts) and priced (prices.ts).
import type { HandlerOutput } from "./cost-handlers.ts";
import {
  type CostMeasure,
  type KebAuditMeasure,
  type NodeQueryMeasure,
  STATUS_TABLE,
} from "./cost-measure.ts";
import {
  ASSUMED,
  applicationTrafficModel,
  auditRunSeconds,
  batchSeconds,
  HOURS,
  kebNews,
  kebRunUnits,
  type Line,
  logGb,
  REFERENCE,
  total,
} from "./cost-model.ts";
import type { PriceTable } from "./prices.ts";

/** What the bench measured, for the model to scale. */
export interface Measured {
  keb: KebAuditMeasure[];
  ingest: Awaited<ReturnType<CostMeasure["ingest"]>>;
  appsAudit: Awaited<ReturnType<CostMeasure["applicationsAudit"]>>;
  indexKeyChange: number;
  nodeQuery: NodeQueryMeasure;
  printed: HandlerOutput;
  alarms: number;
  memoryMb: Record<string, number>;
}

/** Every line of the month: measured figures scaled to the reference, the rest from the model. */
export function price(m: Measured, prices: PriceTable): Line[] {
  const lines: Line[] = [];
  const add = (l: Line): void => void lines.push(l);
  const gbSeconds = (fn: string, seconds: number): number => ((m.memoryMb[fn] ?? 1024) / 1024) * seconds;
  // The KEB audits.
  let kebRuns = 0;
  let kebSeconds = 0;
  let kebLog = 0;
  const units = { read: 0, write: 0 };
  let chunks = 0;
  let digests = 0;
  for (const k of m.keb) {
    const refFlagged = REFERENCE.flagged[k.audit] ?? k.flagged;
    const runs = REFERENCE.runs[k.audit] ?? 0;
    const perRun = kebRunUnits(k, refFlagged);
    const news = kebNews(k, refFlagged);
    units.read += perRun.read * runs + news.units.read;
    units.write += perRun.write * runs + news.units.write;
    chunks += news.chunks;
    digests += news.digests;
    kebRuns += runs;
    const pages = k.pages * (refFlagged / Math.max(1, k.flagged));
    kebSeconds +=
      runs * auditRunSeconds(pages, (k.warm.requests + k.cold.requests) / 2, ASSUMED.coldShareKeb);
    const steady = m.printed[`${k.audit} steady run`];
    const first = m.printed[`${k.audit} first run`];
    if (steady) kebLog += logGb(runs, steady.bytes, steady.lines);
    if (first && steady)
      kebLog += logGb(
        news.runs,
        steady.bytes + ((first.bytes - steady.bytes) * news.transitions) / Math.max(1, k.first.transitions),
        first.lines,
      );
  }
  add({
    group: "keb",
    name: "DynamoDB audit table reads",
    quantity: units.read,
    price: prices.dynamoReadUnit,
    basis: "measured x model",
  });
  add({
    group: "keb",
    name: "DynamoDB audit table writes",
    quantity: units.write,
    price: prices.dynamoWriteUnit,
    basis: "measured x model",
  });
  add({
    group: "keb",
    name: "SNS publishes (64 KB chunks)",
    quantity: chunks,
    price: prices.snsPublish,
    basis: "measured x model",
  });
  add({
    group: "keb",
    name: "SNS e-mail deliveries of digests",
    quantity: digests * ASSUMED.emailSubscribers,
    price: prices.snsEmail,
    basis: "model",
  });
  add({
    group: "keb",
    name: "Lambda invocations (audit)",
    quantity: kebRuns,
    price: prices.lambdaRequest,
    basis: "model",
  });
  add({
    group: "keb",
    name: "Lambda GB-seconds (audit, arm64)",
    quantity: gbSeconds("Audit", kebSeconds),
    price: prices.lambdaArmGbSecond,
    basis: "model",
  });
  add({
    group: "keb",
    name: "CloudWatch Logs ingestion (audit)",
    quantity: kebLog,
    price: prices.logsIngestGb,
    basis: "measured x model",
  });
  add({
    group: "keb",
    name: "Secrets Manager: KEB client secret",
    quantity: 1,
    price: prices.secret,
    basis: "model",
  });
  // Read afresh each run: the 5-minute cache is shorter than the schedule's gaps.
  add({
    group: "keb",
    name: "Secrets Manager GetSecretValue",
    quantity: kebRuns,
    price: prices.secretsApiCall,
    basis: "model",
  });
  add({
    group: "keb",
    name: "EventBridge Scheduler invocations",
    quantity: kebRuns,
    price: prices.schedulerInvocation,
    basis: "model",
  });

  // The applications audit: its reads grow with the refused rows of its window.
  const appsRuns = REFERENCE.runs.applications ?? 0;
  const a = m.appsAudit;
  const refRows =
    (REFERENCE.messagesPerSecond / 2) * REFERENCE.rejectedShare * REFERENCE.rejectedWindowMinutes * 60;
  const minimumPerQuery = 0.5;
  const variable = Math.max(0, a.units.read - a.requests * minimumPerQuery);
  const appsRead = a.units.read + variable * (refRows / Math.max(1, a.rowsRead) - 1);
  add({
    group: "apps-audit",
    name: "DynamoDB reads (byWatch, audit table)",
    quantity: appsRead * appsRuns,
    price: prices.dynamoReadUnit,
    basis: "measured x model",
  });
  add({
    group: "apps-audit",
    name: "DynamoDB writes (lease, ledger)",
    quantity: a.units.write * appsRuns,
    price: prices.dynamoWriteUnit,
    basis: "measured x model",
  });
  add({
    group: "apps-audit",
    name: "Lambda invocations",
    quantity: appsRuns,
    price: prices.lambdaRequest,
    basis: "model",
  });
  add({
    group: "apps-audit",
    name: "Lambda GB-seconds (arm64)",
    quantity: gbSeconds(
      "ApplicationsAudit",
      appsRuns * auditRunSeconds(0, a.requests, ASSUMED.coldShareApps),
    ),
    price: prices.lambdaArmGbSecond,
    basis: "model",
  });
  const appsPrinted = m.printed["applications steady run"];
  add({
    group: "apps-audit",
    name: "CloudWatch Logs ingestion",
    quantity: appsPrinted ? logGb(appsRuns, appsPrinted.bytes, appsPrinted.lines) : 0,
    price: prices.logsIngestGb,
    basis: "measured x model",
  });
  add({
    group: "apps-audit",
    name: "EventBridge Scheduler invocations",
    quantity: appsRuns,
    price: prices.schedulerInvocation,
    basis: "model",
  });

  // The Application path.
  const messages = REFERENCE.messagesPerSecond * HOURS * 3_600;
  const traffic = applicationTrafficModel(messages);
  const statusWrites = [...m.ingest.units]
    .filter(([k]) => k.split("/")[0] === STATUS_TABLE)
    .reduce((s, [, u]) => s + u.write, 0);
  const wruPerMessage = statusWrites / m.ingest.messages;
  add({
    group: "app-path",
    name: "DynamoDB status table writes",
    quantity: wruPerMessage * messages,
    price: prices.dynamoWriteUnit,
    basis: "measured x model",
  });
  const q = traffic.sqsRequests;
  add({
    group: "app-path",
    name: "SQS requests (send, receive, delete, idle polls)",
    quantity: q.sends + q.receives + q.deletes + q.idle,
    price: prices.sqsRequest,
    basis: "model",
  });
  add({
    group: "app-path",
    name: "Lambda invocations (applications)",
    quantity: traffic.batches,
    price: prices.lambdaRequest,
    basis: "model",
  });
  // One conditional UpdateItem a message, at most (a batch folds an Application's messages).
  const writesPerBatch = traffic.batchSize;
  add({
    group: "app-path",
    name: "Lambda GB-seconds (applications, arm64)",
    quantity: gbSeconds(
      "ApplicationsSubscriber",
      traffic.batches * batchSeconds(writesPerBatch, m.ingest.cpuMsPerMessage, traffic.batchSize),
    ),
    price: prices.lambdaArmGbSecond,
    basis: "measured x model",
  });
  const batchPrinted = m.printed["Application batch"];
  add({
    group: "app-path",
    name: "CloudWatch Logs ingestion (applications)",
    quantity: batchPrinted ? logGb(traffic.batches, batchPrinted.bytes, batchPrinted.lines) : 0,
    price: prices.logsIngestGb,
    basis: "measured x model",
  });

  // Observability.
  add({
    group: "observability",
    name: "CloudWatch custom metrics (from the handlers' EMF)",
    quantity: customMetrics(m.printed).length,
    price: prices.cloudwatchMetric,
    basis: "measured",
  });
  add({
    group: "observability",
    name: "CloudWatch alarms (sst.config.ts, stage prod)",
    quantity: m.alarms,
    price: prices.cloudwatchAlarm,
    basis: "measured",
  });
  const logs = total(lines.filter((l) => l.price === prices.logsIngestGb)) / prices.logsIngestGb.usd;
  add({
    group: "observability",
    name: "CloudWatch Logs archive (a month kept)",
    quantity: logs * ASSUMED.logCompression,
    price: prices.logsStorageGbMonth,
    basis: "model",
  });
  return lines;
}

/** Distinct (namespace, metric, dimensions) over every invocation: CloudWatch's custom metrics. */
export function customMetrics(printed: HandlerOutput): string[] {
  return [...new Set(Object.values(printed).flatMap((p) => p.metrics))].sort();
}
