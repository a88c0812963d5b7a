export { decodeApplication } from "./application.ts";
export { encodeBytes, utf8 } from "./base64.ts";
export {
  DEFAULT_EDGE_THRESHOLDS,
  type EdgeThresholds,
  quarantinedByCode,
  type RefusingNode,
  refusingNodes,
  type StuckApplication,
  stuckApplications,
} from "./edge-findings.ts";
export * from "./errors.ts";
export { identifier, looksLikeHashId } from "./identifier.ts";
export { keyFunc, keyFuncObj, kindToResource, parseKey } from "./key.ts";
export { decodeMessage } from "./message.ts";
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
export { comparePrecedence, FINISHED, type Precedence, statusRank } from "./status.ts";
export { coalesce, type StatusUpdate, toUpdate } from "./status-update.ts";
