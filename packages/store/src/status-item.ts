import type { UpdateCommandInput } from "@aws-sdk/lib-dynamodb";
import {
  FINISHED,
  isoTime,
  MAX_FUTURE_SKEW_MS,
  type StatusRow,
  type StatusUpdate,
} from "@fleet-auditor/metaserver";
import { watchKey } from "./watch-key.ts";

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
  /** The winning message's header time, ms: the sort key of `byWatch` (and of the retiring `byNode`). */
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
  // empty node is left out, and the row is then not in byNodeId. A row no audit watches (done, or
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
