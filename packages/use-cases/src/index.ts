export { ApplicationsEnvSchema } from "./applications-config.ts";
export {
  AlertingEnvSchema,
  type AuditFunctionEnv,
  AuditFunctionEnvSchema,
  auditsFrom,
  linksFrom,
  messagingFrom,
  policyFrom,
  TopicArnSchema,
} from "./audit-config.ts";
export { BATCH_DEADLINE_MARGIN_MS, batchDeadline, RUN_DEADLINE_MARGIN_MS, runDeadline } from "./deadline.ts";
export {
  type ApplicationsAuditEnv,
  ApplicationsAuditEnvSchema,
  EdgeThresholdsEnvSchema,
  thresholdsFrom,
} from "./edge-audit-config.ts";
export * from "./errors.ts";
export { type IngestCounts, ingestBatch, lineMessageId, type QueuedMessage } from "./ingest-applications.ts";
export { KebEnvSchema, kebClientFrom } from "./keb-connection.ts";
export {
  isNotifyTestRequest,
  NotifyTestInputSchema,
  type NotifyTestResult,
  notifyTest,
  parseNotifyTest,
  type TopicTest,
} from "./notify-test.ts";
export { PagerEnvSchema } from "./pager-config.ts";
export { deliverToPager, pagerEventFor } from "./pager-delivery.ts";
export type { AuditSource, RunLogger, SlackPoster, SlackThreads } from "./ports.ts";
export { runAudit } from "./run-audit.ts";
export type { AuditRunDeps, AuditRunHooks, AuditRunPorts, AuditRunSettings } from "./run-deps.ts";
export { LEDGER_TRANSITIONS } from "./run-finish.ts";
export { type AuditRunInput, AuditRunInputSchema, parseRunInput } from "./run-input.ts";
export { RunSummarySchema } from "./run-summary-schema.ts";
export {
  freshAfterFailure,
  rotating,
  type SecretBuilt,
  type SecretReader,
  secretOf,
  secretRef,
} from "./secret.ts";
export { isShowRequest, parseShowRun, type RunView, ShowRunInputSchema, showRun } from "./show-run.ts";
export { type SlackEnv, SlackEnvSchema } from "./slack-config.ts";
export { type DeliveredMessage, deliverToSlack, slackMessageFor } from "./slack-delivery.ts";
export { parseStatusQuery, StatusQueryInputSchema } from "./status-query-input.ts";
export { StatusTableSource } from "./status-table-source.ts";
