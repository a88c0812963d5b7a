export { auditTableDefinition, itemKey, KEYS } from "./audit-table.ts";
export { batchGet } from "./batch-get.ts";
export { batchWrite } from "./batch-write.ts";
export { documentClient } from "./document-client.ts";
export { DynamoAuditStore, type DynamoAuditStoreOptions } from "./dynamo-audit-store.ts";
export { DynamoReportStore, packParts } from "./dynamo-report-store.ts";
export { DynamoSilenceStore } from "./dynamo-silence-store.ts";
export { DynamoStatusStore, type DynamoStatusStoreOptions } from "./dynamo-status-store.ts";
export { type EmbeddedDynamo, ensureTable, startEmbeddedDynamo } from "./embedded-dynamo.ts";
export * from "./errors.ts";
export {
  QUARANTINE_PREFIX,
  quarantineToItem,
  STATUS_ATTRIBUTES,
  type StatusRead,
  type StatusTtl,
  statusQueryInput,
  statusUpdateCommand,
  toQuarantineItem,
  toRow,
  toWatchedRow,
  watchedQueryInputs,
} from "./status-item.ts";
export { STATUS_INDEXES, statusTableDefinition } from "./status-table.ts";
export {
  WATCH_PROJECTION,
  WATCH_SHARDS,
  watchKey,
  watchKeys,
  watchSetOf,
} from "./watch-key.ts";
