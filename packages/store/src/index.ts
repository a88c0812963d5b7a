export { auditTableDefinition, itemKey } from "./audit-table.ts";
export { documentClient } from "./document-client.ts";
export { DynamoAuditStore } from "./dynamo-audit-store.ts";
export { DynamoIncidentHistory } from "./dynamo-incident-history.ts";
export { DynamoMessageOrder } from "./dynamo-message-order.ts";
export { DynamoReportStore, packParts } from "./dynamo-report-store.ts";
export { DynamoSilenceStore } from "./dynamo-silence-store.ts";
export { DynamoSlackThreads } from "./dynamo-slack-threads.ts";
export { DynamoStatusStore } from "./dynamo-status-store.ts";
export {
  type EmbeddedDynamo,
  ensureTable,
  hasEmbeddedStore,
  startEmbeddedDynamo,
} from "./embedded-dynamo.ts";
export * from "./errors.ts";
export { fromIndex, fromIndexes } from "./index-fallback.ts";
export { managedSecretReader } from "./managed-secrets.ts";
export { orderStateOf } from "./message-order-item.ts";
export { quarantineToItem, toQuarantineItem } from "./quarantine-item.ts";
export { QUARANTINE_PREFIX, STATUS_ATTRIBUTES, statusUpdateCommand, toRow } from "./status-item.ts";
export { matchesStatusQuery, statusQueryInput } from "./status-reads.ts";
export {
  RETIRING_STATUS_INDEXES,
  retiringStatusIndexes,
  STATUS_INDEXES,
  type StatusTableOptions,
  statusTableDefinition,
} from "./status-table.ts";
export { WATCH_PROJECTION, WATCH_SHARDS, watchKey, watchKeys } from "./watch-key.ts";
