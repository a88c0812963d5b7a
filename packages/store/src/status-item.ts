import type { QueryCommandInput, UpdateCommandInput } from "@aws-sdk/lib-dynamodb";
import {
  FINISHED,
  type QuarantineItem,
  STATUS_RANK,
  type StatusQuery,
  type StatusRow,
  type StatusUpdate,
} from "@fleet-auditor/metaserver";
import { STATUS_INDEXES } from "./status-table.ts";

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
  reason: "reason",
  /** The winning message's header time, ms: the sort key of `byNode` and `byStatus`. */
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

/** How long rows live: finished ones briefly, unfinished ones long enough to be seen stuck. */
export interface StatusTtl {
  finishedTtlHours: number;
  unfinishedTtlDays: number;
}

/**
 * The conditional UpdateItem for one status update: it writes only over an older message
 * (timestamp, then status rank, then msg_id) and keeps `firstSeenAt`. The item holds the winning
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
  const values: Record<string, unknown> = { ":now": at };
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
  // empty node or status is left out, and the row is then not in byNode or byStatus.
  const optional: Array<[string, unknown]> = [
    [A.node, u.node || undefined],
    [A.status, u.status || undefined],
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
    ConditionExpression: `attribute_not_exists(${id}) OR ${ts} < :${A.timestamp} OR (${ts} = :${A.timestamp} AND ${rank} < :${A.rank}) OR (${ts} = :${A.timestamp} AND ${rank} = :${A.rank} AND ${msgId} < :${A.msgId})`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ReturnValuesOnConditionCheckFailure: "ALL_OLD",
  };
}

/** A status item as a row; attributes an old item lacks read as empty. */
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
    messageTime: new Date(Number(item[A.timestamp])).toISOString(),
    msgId: text(A.msgId),
    kind: text(A.kind),
    firstSeenAt: text(A.firstSeenAt),
    updatedAt: text(A.updatedAt),
    sizes: (item[A.sizes] as StatusRow["sizes"]) ?? { option: 0, reqBody: 0, respBody: 0 },
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

/**
 * The read a status query needs: one index query when it names a node or a status; else one
 * `byStatus` query per status, each newest first and stopped at `limit`, merged: at most
 * statuses × limit items read, never the whole table.
 */
export type StatusRead =
  | { op: "query"; input: QueryCommandInput; limit: number }
  | { op: "merge"; inputs: QueryCommandInput[]; limit: number };

/**
 * The read for a status query at `now`: `byNode` with a node (the status filtered), `byStatus`
 * with only a status, both newest first from `since`; with neither, `byStatus` once per status,
 * merged (rows without a status are in no index and not listed). TTL deletion lags by up to two
 * days, so expired rows are filtered out here.
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
  }
  const indexed = (IndexName: string, KeyConditionExpression: string): StatusRead => ({
    op: "query",
    limit,
    input: {
      TableName: tableName,
      IndexName,
      KeyConditionExpression,
      FilterExpression: filters.join(" AND "),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
    },
  });
  if (q.node) {
    names["#node"] = A.node;
    values[":node"] = q.node;
    if (q.status) filters.push("#status = :status");
    return indexed(STATUS_INDEXES.byNode, "#node = :node AND #ts >= :since");
  }
  if (q.status) return indexed(STATUS_INDEXES.byStatus, "#status = :status AND #ts >= :since");
  const inputs = [...STATUS_RANK.keys()].map(
    (status) =>
      (statusQueryInput(tableName, { ...q, status }, now) as Extract<StatusRead, { op: "query" }>).input,
  );
  return { op: "merge", inputs, limit };
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

/** A quarantine item back from the table. */
export function toQuarantineItem(item: Record<string, unknown>): QuarantineItem {
  const { [A.id]: _id, qk: _qk, [A.ttl]: _ttl, ...rest } = item;
  return rest as unknown as QuarantineItem;
}
