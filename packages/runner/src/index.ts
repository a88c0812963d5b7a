export { ApplicationsEnvSchema } from "./applications-config.ts";
export { AuditEnvSchema, type AuditFunctionEnv, AuditFunctionEnvSchema, policyFrom } from "./audit-config.ts";
export { ConfigError, parseConfig } from "./config-error.ts";
export {
  type IngestCounts,
  type IngestDeps,
  ingestBatch,
  lineMessageId,
  type QueuedMessage,
} from "./ingest-applications.ts";
export { type KebEnv, KebEnvSchema, kebClientFrom, tokenProviderFrom } from "./keb-connection.ts";
export {
  type AuditRunDeps,
  type AuditRunResult,
  LEDGER_TRANSITIONS,
  type RunLogger,
  runAudit,
} from "./run-audit.ts";
export {
  type AuditRunInput,
  AuditRunInputSchema,
  NarrowingFiltersSchema,
  parseRunInput,
  RunInputError,
} from "./run-input.ts";
export { parseStatusQuery, type StatusQueryInput, StatusQueryInputSchema } from "./status-query-input.ts";
