export { auditTableDefinition, itemKey, KEYS } from "./audit-table.ts";
export { batchGet } from "./batch-get.ts";
export { batchWrite } from "./batch-write.ts";
export { documentClient } from "./document-client.ts";
export { DynamoAuditStore, type DynamoAuditStoreOptions } from "./dynamo-audit-store.ts";
export { DynamoReportStore, packParts } from "./dynamo-report-store.ts";
export { DynamoSilenceStore } from "./dynamo-silence-store.ts";
export { DynamoSlackThreads, type DynamoSlackThreadsOptions } from "./dynamo-slack-threads.ts";
export { DynamoStatusStore, type DynamoStatusStoreOptions } from "./dynamo-status-store.ts";
export { type EmbeddedDynamo, ensureTable, startEmbeddedDynamo } from "./embedded-dynamo.ts";
export * from "./errors.ts";
export { fromIndex } from "./index-fallback.ts";
export { type ManagedSecretsOptions, managedSecretReader } from "./managed-secrets.ts";
export { quarantineToItem, toQuarantineItem } from "./quarantine-item.ts";
export {
  QUARANTINE_PREFIX,
  STATUS_ATTRIBUTES,
  type StatusTtl,
  statusUpdateCommand,
  toRow,
} from "./status-item.ts";
export {
  matchesStatusQuery,
  type StatusRead,
  statusQueryInput,
  toWatchedRow,
  watchedQueryInputs,
} from "./status-reads.ts";
export {
  RETIRING_STATUS_INDEXES,
  retiringStatusIndexes,
  STATUS_INDEXES,
  statusTableDefinition,
} from "./status-table.ts";
export {
  WATCH_PROJECTION,
  WATCH_SHARDS,
  watchKey,
  watchKeys,
  watchSetOf,
} from "./watch-key.ts";
