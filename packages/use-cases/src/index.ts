export { ApplicationsEnvSchema } from "./applications-config.ts";
export {
  AlertingEnvSchema,
  AuditEnvSchema,
  groupByEnvSchema,
  linksFrom,
  messagingFrom,
  policyFrom,
  TopicArnSchema,
} from "./audit-config.ts";
export { type AuditGrouping, type AuditPlugin, AuditRegistry } from "./audit-registry.ts";
export {
  BATCH_DEADLINE_MARGIN_MS,
  batchDeadline,
  beforeDeadline,
  RUN_DEADLINE_MARGIN_MS,
  runDeadline,
} from "./deadline.ts";
export * from "./errors.ts";
export {
  actOnIncident,
  type IncidentAction,
  type IncidentActionDeps,
  type IncidentActionResult,
} from "./incident-actions.ts";
export {
  type IncidentSummary,
  type IncidentSummaryDeps,
  IncidentSummaryInputSchema,
  incidentSummary,
  isIncidentSummaryRequest,
  parseIncidentSummary,
} from "./incident-summary.ts";
export { type IngestCounts, ingestBatch, lineMessageId, type QueuedMessage } from "./ingest-applications.ts";
export { inhibitRulesEnvSchema } from "./inhibit-config.ts";
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
export { type PagerDutyWebhookEnv, PagerDutyWebhookEnvSchema } from "./pagerduty-webhook-config.ts";
export type { AuditSource, Confirmed, MessageOrder, RunLogger, SlackPoster, SlackThreads } from "./ports.ts";
export { PROXY_VARIABLES, proxyFrom } from "./proxy-env.ts";
export { type RouteSetting, RoutesJsonSchema } from "./route-config.ts";
export { runAudit } from "./run-audit.ts";
export type { AuditRunDeps, AuditRunHooks, AuditRunPorts, AuditRunSettings } from "./run-deps.ts";
export { LEDGER_TRANSITIONS } from "./run-finish.ts";
export { type AuditRunInput, AuditRunInputSchema, parseRunInput } from "./run-input.ts";
export { stoodBack } from "./run-start.ts";
export type { Run, Scan, State } from "./run-state.ts";
export { RunSummarySchema } from "./run-summary-schema.ts";
export {
  freshAfterFailure,
  rotating,
  type SecretBuilt,
  SecretIdSchema,
  type SecretReader,
  type SecretRef,
  secretOf,
  secretRef,
} from "./secret.ts";
export { secretVariable } from "./secret-variable.ts";
export { isShowRequest, parseShowRun, type RunView, ShowRunInputSchema, showRun } from "./show-run.ts";
export { type SlackActionsEnv, SlackActionsEnvSchema } from "./slack-actions-config.ts";
export { answerSlackClick, SLACK_CLICK_MAX_BYTES, type SlackClickAnswer } from "./slack-click.ts";
export type { SlackClickDeps } from "./slack-click-ports.ts";
export { type SlackEnv, SlackEnvSchema } from "./slack-config.ts";
export { type DeliveredMessage, deliverToSlack, slackMessageFor } from "./slack-delivery.ts";
export { parseStatusQuery, StatusQueryInputSchema } from "./status-query-input.ts";
