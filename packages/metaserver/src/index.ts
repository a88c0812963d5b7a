export { type Application, decodeApplication, type PatchInfo, rejection } from "./application.ts";
export { decodeBytes, encodeBytes, utf8 } from "./base64.ts";
export {
  DEFAULT_EDGE_THRESHOLDS,
  type EdgeThresholds,
  IN_FLIGHT,
  quarantinedByCode,
  type RefusingNode,
  refusingNodes,
  type StuckApplication,
  stuckApplications,
} from "./edge-findings.ts";
export * from "./errors.ts";
export { bindGoFields, goFold, type KeyOrder, type Members, membersOf } from "./go-json.ts";
export { identifier, looksLikeHashId } from "./identifier.ts";
export {
  type GroupVersionResource,
  type KeyedObject,
  keyFunc,
  keyFuncObj,
  kindToResource,
  parseKey,
} from "./key.ts";
export {
  APPLICATION_RESPONSE,
  type ApplicationMessage,
  decodeMessage,
  type MessageKind,
  nodeOf,
  WATCH_APP_SYNC,
} from "./message.ts";
export { isoTime, MAX_FUTURE_SKEW_MS, refuseFutureTime } from "./message-time.ts";
export type {
  ApplicationStatusStore,
  ApplyOutcome,
  QuarantineItem,
  QuarantineNote,
  StatusQuery,
  StatusRow,
  WatchedRow,
  WatchQuery,
  WatchSet,
  WriteOptions,
} from "./ports.ts";
export type { K8sStatus } from "./schemas.ts";
export {
  APPLICATION_STATUSES,
  type ApplicationStatus,
  comparePrecedence,
  FINISHED,
  type Precedence,
  STATUS_RANK,
  statusRank,
} from "./status.ts";
export {
  type ApplicationIdentity,
  type Coalesced,
  coalesce,
  type StatusUpdate,
  toUpdate,
} from "./status-update.ts";
