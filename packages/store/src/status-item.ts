import type { QueryCommandInput, ScanCommandInput, UpdateCommandInput } from "@aws-sdk/lib-dynamodb";
import {
  FINISHED,
  isoTime,
  MAX_FUTURE_SKEW_MS,
  type QuarantineItem,
  type StatusQuery,
  type StatusRow,
  type StatusUpdate,
  type WatchedRow,
  type WatchQuery,
} from "@fleet-auditor/metaserver";
import { STATUS_INDEXES } from "./status-table.ts";
import { watchKey, watchKeys, watchSetOf } from "./watch-key.ts";

// The status table's codec and expression builders: pure, no client, time passed in. The adapter
// (`dynamo-status-store.ts`) only sends what these build.

/**
 * Row and update fields → item attributes. Every message rewrites the row, so the frequent
 * long names are short in the item; the rest keep their names. The only place either is spelled.
 */
export const STATUS_ATTRIBUTES = {
  id: "id",
  key: "key",
  group: "grp",
  version: "ver",
  resource: "res",
  namespace: "ns",
  name: "name",
  verb: "verb",
  subresource: "subresource",
  node: "node",
  status: "status",
  /** `open#<n>` or `refused#<n>`, or absent: the `byWatch` key (see `watch-key.ts`). */
  watch: "wk",
  reason: "reason",
  /** The winning message's header time, ms: the sort key of `byNode` and `byWatch`. */
  timestamp: "ts",
  rank: "rank",
  msgId: "msgId",
  /** No longer written (it grew by one id per message, to the 400 KB item limit): removed on update. */
  msgIds: "msgIds",
  kind: "kind",
  appTimestamp: "appTimestamp",
  sizes: "sizes",
  errorCode: "errorCode",
  errorReason: "errorReason",
  errorMessage: "errorMessage",
  firstSeenAt: "firstSeenAt",
  updatedAt: "updatedAt",
  ttl: "ttl",
} as const;
const A = STATUS_ATTRIBUTES;

/** Item ids of quarantined bodies start with this; Applications never do (theirs are hashes or UUIDs). */
export const QUARANTINE_PREFIX = "QUARANTINE#";

/**
 * A stored header time further than this after `now` came from no clock: the ingest quarantines a
 * time more than `MAX_FUTURE_SKEW_MS` after SQS received the message, and twice that leaves room
 * for SQS's and Lambda's clocks to disagree. Such a row (stored before that quarantine) is
 * replaced by the next message whatever its time, and is no refusal "since" anything.
 */
export const FUTURE_CEILING_MS = 2 * MAX_FUTURE_SKEW_MS;

/** How long rows live: finished ones briefly, unfinished ones long enough to be seen stuck. */
export interface StatusTtl {
  finishedTtlHours: number;
  unfinishedTtlDays: number;
}

/**
 * The conditional UpdateItem for one status update: it writes only over an older message
 * (timestamp, then status rank, then msg_id), or over a row whose time lies past
 * `FUTURE_CEILING_MS` from `now` (no clock wrote it, and it would otherwise win every merge until
 * its TTL), and keeps `firstSeenAt`. The item holds the winning
 * msg_id alone, so it stays the same size however many messages an Application gets.
 */
export function statusUpdateCommand(
  tableName: string,
  u: StatusUpdate,
  now: Date,
  ttl: StatusTtl,
): UpdateCommandInput {
  const at = now.toISOString();
  const ttlMs = FINISHED.has(u.status)
    ? ttl.finishedTtlHours * 3_600_000
    : ttl.unfinishedTtlDays * 86_400_000;
  const fields: Record<string, unknown> = {
    [A.key]: u.key,
    [A.group]: u.group,
    [A.version]: u.version,
    [A.resource]: u.resource,
    [A.namespace]: u.namespace,
    [A.name]: u.name,
    [A.verb]: u.verb,
    [A.subresource]: u.subresource,
    [A.reason]: u.reason,
    [A.timestamp]: u.timestamp,
    [A.rank]: u.rank,
    [A.msgId]: u.msgId,
    [A.kind]: u.kind,
    [A.appTimestamp]: u.appTimestamp,
    [A.sizes]: u.sizes,
    [A.updatedAt]: at,
    [A.ttl]: Math.floor((now.getTime() + ttlMs) / 1000),
  };
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ":now": at, ":ceiling": now.getTime() + FUTURE_CEILING_MS };
  const name = (attr: string): string => {
    names[`#${attr}`] = attr;
    return `#${attr}`;
  };
  const sets = Object.entries(fields).map(([attr, value]) => {
    values[`:${attr}`] = value;
    return `${name(attr)} = :${attr}`;
  });
  sets.push(`${name(A.firstSeenAt)} = if_not_exists(${name(A.firstSeenAt)}, :now)`);
  // Items written before msg_ids were bounded shed their set.
  const removes: string[] = [name(A.msgIds)];
  // An empty string cannot be an index key (DynamoDB refuses the write; dynalite takes it): an
  // empty node is left out, and the row is then not in byNode. A row no audit watches (done, or
  // no status) has no watch key, so it costs byWatch nothing.
  const optional: Array<[string, unknown]> = [
    [A.node, u.node || undefined],
    [A.status, u.status || undefined],
    [A.watch, watchKey(u.status, u.id)],
    [A.errorCode, u.errorCode],
    [A.errorReason, u.errorReason],
    [A.errorMessage, u.errorMessage],
  ];
  for (const [attr, value] of optional) {
    if (value === undefined) removes.push(name(attr));
    else {
      values[`:${attr}`] = value;
      sets.push(`${name(attr)} = :${attr}`);
    }
  }
  const [id, ts, rank, msgId] = [name(A.id), name(A.timestamp), name(A.rank), name(A.msgId)];
  return {
    TableName: tableName,
    Key: { [A.id]: u.id },
    UpdateExpression: `SET ${sets.join(", ")} REMOVE ${removes.join(", ")}`,
    ConditionExpression: `attribute_not_exists(${id}) OR ${ts} > :ceiling OR ${ts} < :${A.timestamp} OR (${ts} = :${A.timestamp} AND ${rank} < :${A.rank}) OR (${ts} = :${A.timestamp} AND ${rank} = :${A.rank} AND ${msgId} < :${A.msgId})`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ReturnValuesOnConditionCheckFailure: "ALL_OLD",
  };
}

/**
 * A status item as a row; attributes an old item lacks read as empty. Never throws on what an
 * item holds: a header time no clock wrote reads as the nearest four-digit-year instant
 * (`isoTime`), a size that is no number as 0.
 */
export function toRow(item: Record<string, unknown>): StatusRow {
  const text = (attr: string): string => String(item[attr] ?? "");
  const row: StatusRow = {
    id: text(A.id),
    key: text(A.key),
    group: text(A.group),
    version: text(A.version),
    resource: text(A.resource),
    namespace: text(A.namespace),
    name: text(A.name),
    verb: text(A.verb),
    subresource: text(A.subresource),
    node: text(A.node),
    status: text(A.status),
    reason: text(A.reason),
    messageTime: isoTime(item[A.timestamp]),
    msgId: text(A.msgId),
    kind: text(A.kind),
    firstSeenAt: text(A.firstSeenAt),
    updatedAt: text(A.updatedAt),
    sizes: sizesOf(item[A.sizes]),
  };
  const [code, reason, message] = [item[A.errorCode], item[A.errorReason], item[A.errorMessage]];
  if (code !== undefined || reason !== undefined || message !== undefined) {
    row.error = {};
    if (code !== undefined) row.error.code = Number(code);
    if (reason !== undefined) row.error.reason = String(reason);
    if (message !== undefined) row.error.message = String(message);
  }
  return row;
}

/** The sizes of an item, as JSON numbers: a BigInt (a number past 2^53 in the item) cannot be printed as JSON. */
function sizesOf(value: unknown): StatusRow["sizes"] {
  const sizes = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const size = (v: unknown): number => {
    const n = typeof v === "number" || typeof v === "bigint" ? Number(v) : 0;
    return Number.isFinite(n) ? n : 0;
  };
  return { option: size(sizes.option), reqBody: size(sizes.reqBody), respBody: size(sizes.respBody) };
}

/**
 * The read a status query needs, never more than about `limit` rows: `byNode` newest first
 * (whole rows); the `byWatch` shards of the status's set, each newest first and stopped at
 * `limit`, merged, and the rows then read whole by id; or, for rows in no index (Approved,
 * Completed) and for no filter at all, a scan that stops once `limit` rows matched.
 */
export type StatusRead =
  | { op: "query"; input: QueryCommandInput; limit: number }
  | { op: "watch"; inputs: QueryCommandInput[]; limit: number }
  | { op: "scan"; input: ScanCommandInput; limit: number };

/**
 * The read for a status query at `now`: `byNode` with a node (the status filtered); with only a
 * status, `byWatch` for an unfinished or refused one, both newest first from `since`; else a
 * bounded scan. TTL deletion lags by up to two days, so expired rows are filtered out here.
 */
export function statusQueryInput(tableName: string, q: StatusQuery, now: Date): StatusRead {
  // DynamoDB refuses names and values an expression does not use: add each where it is used.
  const names: Record<string, string> = { "#ts": A.timestamp, "#ttl": A.ttl };
  const values: Record<string, unknown> = {
    ":since": q.since?.getTime() ?? 0,
    ":nowS": Math.floor(now.getTime() / 1000),
  };
  const filters = ["#ttl > :nowS"];
  const limit = q.limit ?? 1000;
  if (q.status) {
    names["#status"] = A.status;
    values[":status"] = q.status;
    filters.push("#status = :status");
  }
  const query = (IndexName: string, KeyConditionExpression: string, extra = {}): QueryCommandInput => ({
    TableName: tableName,
    IndexName,
    KeyConditionExpression,
    FilterExpression: filters.join(" AND "),
    ExpressionAttributeNames: { ...names },
    ExpressionAttributeValues: { ...values, ...extra },
    ScanIndexForward: false,
  });
  if (q.node) {
    names["#node"] = A.node;
    values[":node"] = q.node;
    return { op: "query", limit, input: query(STATUS_INDEXES.byNode, "#node = :node AND #ts >= :since") };
  }
  const set = q.status ? watchSetOf(q.status) : undefined;
  if (set) {
    names["#wk"] = A.watch;
    const inputs = watchKeys(set).map((wk) =>
      query(STATUS_INDEXES.watch, "#wk = :wk AND #ts >= :since", { ":wk": wk }),
    );
    return { op: "watch", inputs, limit };
  }
  // Quarantined bodies share the table; they have no `ts`, which the filter asks for anyway.
  filters.push("#ts >= :since");
  return {
    op: "scan",
    limit,
    input: {
      TableName: tableName,
      FilterExpression: filters.join(" AND "),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * The queries of a watched read, one per shard of the set: open rows whose message is before
 * `before` (stuck candidates), refused rows since `since` (the refusal window) and not past
 * `FUTURE_CEILING_MS` from `now` (a time no clock wrote is no refusal in any window). Only the
 * index's projection is read.
 */
export function watchedQueryInputs(tableName: string, q: WatchQuery, now: Date): QueryCommandInput[] {
  const range = q.before ? "#ts < :before" : "#ts BETWEEN :since AND :ceiling";
  // BETWEEN refuses a lower bound above its upper one.
  const since = q.since?.getTime() ?? 0;
  const bound = q.before
    ? { ":before": q.before.getTime() }
    : { ":since": since, ":ceiling": Math.max(since, now.getTime() + FUTURE_CEILING_MS) };
  return watchKeys(q.set).map((wk) => ({
    TableName: tableName,
    IndexName: STATUS_INDEXES.watch,
    KeyConditionExpression: `#wk = :wk AND ${range}`,
    FilterExpression: "#ttl > :nowS",
    ExpressionAttributeNames: { "#wk": A.watch, "#ts": A.timestamp, "#ttl": A.ttl },
    ExpressionAttributeValues: { ":wk": wk, ":nowS": Math.floor(now.getTime() / 1000), ...bound },
  }));
}

/** A row of the watched index as the audit reads it. */
export function toWatchedRow(item: Record<string, unknown>): WatchedRow {
  const { msgId: _m, kind: _k, sizes: _s, updatedAt: _u, ...row } = toRow(item);
  return row;
}

/**
 * The write that gives a scanned status item the `byWatch` key its status and ID call for, or
 * undefined when it has it (or is no Application row). Made only while the row still holds the
 * message it was read with, by `msgId`, unique per message: a newer message sets the key itself,
 * and its header time can equal the old one's, so the time alone would let a Completed row be
 * marked open. An item from before `msgId` was written has none (every later write sets one).
 * Reads `id`, `status`, `wk`, `ts` and `msgId` of the item.
 */
export function watchKeyRepair(
  tableName: string,
  item: Record<string, unknown>,
): UpdateCommandInput | undefined {
  const id = String(item[A.id]);
  if (id.startsWith(QUARANTINE_PREFIX) || item[A.timestamp] === undefined) return undefined;
  const want = watchKey(String(item[A.status] ?? ""), id);
  if (item[A.watch] === want) return undefined;
  const msgId = item[A.msgId];
  return {
    TableName: tableName,
    Key: { [A.id]: id },
    UpdateExpression: want ? "SET #wk = :wk" : "REMOVE #wk",
    ConditionExpression:
      msgId === undefined ? "attribute_not_exists(#msgId) AND #ts = :ts" : "#msgId = :msgId AND #ts = :ts",
    ExpressionAttributeNames: { "#wk": A.watch, "#msgId": A.msgId, "#ts": A.timestamp },
    ExpressionAttributeValues: {
      ":ts": item[A.timestamp],
      ...(msgId === undefined ? {} : { ":msgId": msgId }),
      ...(want ? { ":wk": want } : {}),
    },
  };
}

/** A quarantined body as its item: keyed by the SQS message id, in the sparse `byQuarantine` index. */
export function quarantineToItem(item: QuarantineItem, ttlDays: number): Record<string, unknown> {
  return {
    [A.id]: `${QUARANTINE_PREFIX}${item.sqsMessageId}`,
    qk: "Q",
    ...item,
    [A.ttl]: Math.floor(Date.parse(item.receivedAt) / 1000) + ttlDays * 86_400,
  };
}

/** A quarantine item back from the table; what an item lacks or holds of another type reads as empty. */
export function toQuarantineItem(item: Record<string, unknown>): QuarantineItem {
  const text = (v: unknown): string => (v === undefined || v === null ? "" : String(v));
  const bytes = Number(item.bodyBytes ?? 0);
  return {
    sqsMessageId: text(item.sqsMessageId),
    reason: text(item.reason),
    code: text(item.code),
    body: text(item.body),
    bodyBytes: Number.isFinite(bytes) ? bytes : 0,
    truncated: item.truncated === true,
    receivedAt: text(item.receivedAt),
  };
}
