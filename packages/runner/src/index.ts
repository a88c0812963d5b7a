export { ApplicationsEnvSchema } from "./applications-config.ts";
export {
  type AlertingEnv,
  AlertingEnvSchema,
  AuditEnvSchema,
  type AuditFunctionEnv,
  AuditFunctionEnvSchema,
  auditsFrom,
  linksFrom,
  messagingFrom,
  policyFrom,
  TopicArnSchema,
} from "./audit-config.ts";
export { sourceFor } from "./audit-source.ts";
export {
  BATCH_DEADLINE_MARGIN_MS,
  batchDeadline,
  beforeDeadline,
  RUN_DEADLINE_MARGIN_MS,
  runDeadline,
} from "./deadline.ts";
export {
  type ApplicationsAuditEnv,
  ApplicationsAuditEnvSchema,
  type EdgeThresholdsEnv,
  EdgeThresholdsEnvSchema,
  thresholdsFrom,
} from "./edge-audit-config.ts";
export * from "./errors.ts";
export {
  type IngestCounts,
  type IngestDeps,
  ingestBatch,
  lineMessageId,
  type QueuedMessage,
} from "./ingest-applications.ts";
export {
  type KebAuth,
  type KebConnection,
  type KebEnv,
  KebEnvSchema,
  kebClientFrom,
  tokenProviderFrom,
} from "./keb-connection.ts";
export {
  isNotifyTestRequest,
  type NotifyTestDeps,
  NotifyTestInputSchema,
  type NotifyTestResult,
  notifyTest,
  parseNotifyTest,
  type TopicTest,
} from "./notify-test.ts";
export { type PagerEnv, PagerEnvSchema } from "./pager-config.ts";
export { deliverToPager, type PagerEventFor, pagerEventFor } from "./pager-delivery.ts";
export {
  PAGER_LIMITS,
  type PagerEvent,
  type PagerLink,
  type PagerResolve,
  type PagerSeverity,
  type PagerTrigger,
} from "./pager-event.ts";
export type {
  AuditSource,
  Confirmed,
  PagerPort,
  RunLogger,
  SlackPosted,
  SlackPoster,
  SlackReply,
  SlackThreads,
} from "./ports.ts";
export { runAudit } from "./run-audit.ts";
export type { AuditRunDeps, AuditRunHooks, AuditRunPorts, AuditRunSettings } from "./run-deps.ts";
export { LEDGER_TRANSITIONS } from "./run-finish.ts";
export {
  type AuditRunInput,
  AuditRunInputSchema,
  NarrowingFiltersSchema,
  parseRunInput,
} from "./run-input.ts";
export type { AuditRunResult, RunOptions } from "./run-state.ts";
export { RunSummarySchema } from "./run-summary-schema.ts";
export {
  freshAfterFailure,
  rotating,
  type SecretBuilt,
  SecretIdSchema,
  type SecretReader,
  type SecretRef,
  type SecretValue,
  secretOf,
  secretRef,
} from "./secret.ts";
export { isShowRequest, parseShowRun, type RunView, ShowRunInputSchema, showRun } from "./show-run.ts";
export { type SlackEnv, SlackEnvSchema, type SlackWay } from "./slack-config.ts";
export { type DeliveredMessage, deliverToSlack, slackMessageFor } from "./slack-delivery.ts";
export type { Placement, TellsIncident } from "./slack-thread.ts";
export { parseStatusQuery, type StatusQueryInput, StatusQueryInputSchema } from "./status-query-input.ts";
export { StatusTableSource, type StatusTableSourceOptions } from "./status-table-source.ts";
