// The reads of the status table, as DynamoDB inputs: a status query (by node, by the watched
// index, or a bounded scan), the watched index's shards, and the repair of a row whose watch
// key is stale. Items become rows in `status-item.ts`.

import type { QueryCommandInput, ScanCommandInput, UpdateCommandInput } from "@aws-sdk/lib-dynamodb";
import type { StatusQuery, WatchedRow, WatchQuery } from "@fleet-auditor/metaserver";
import { FUTURE_CEILING_MS, QUARANTINE_PREFIX, STATUS_ATTRIBUTES, toRow } from "./status-item.ts";
import { STATUS_INDEXES } from "./status-table.ts";
import { watchKey, watchKeys, watchSetOf } from "./watch-key.ts";

const A = STATUS_ATTRIBUTES;

/**
 * Segments of a node scan, read in parallel: a scan pages 1 MB at a time, and the reference
 * stage's table (about 1.3 million rows, 700 MB) is some 700 pages, which one reader would page
 * through for a minute, eight in about as many seconds (docs/kubeedge.md#queries).
 */
export const NODE_SCAN_SEGMENTS = 8;

/**
 * The read a status query needs: a node's Application IDs from `byNodeId`, whose rows are then
 * read whole by id and matched, or `scan`, a scan of the table filtered by node, in
 * `NODE_SCAN_SEGMENTS` segments and stopped once `limit` rows matched, while `byNodeId` cannot be
 * read (a stage without `nodeIndex`, or while it backfills; never the retiring `byNode`, which
 * may be mid-deletion: DynamoDB Local fails a read of an index being deleted); the `byWatch` shards of the status's set, each newest first and stopped at `limit`,
 * merged, and the rows then read whole by id; or, for rows in no index (Approved, Completed) and
 * for no filter at all, a scan that stops once `limit` rows matched. A node query reads every
 * row of that node from `byNodeId`, and up to the whole table without it.
 */
export type StatusRead =
  | {
      op: "node";
      input: QueryCommandInput;
      scan: ScanCommandInput;
      limit: number;
    }
  | { op: "watch"; inputs: QueryCommandInput[]; limit: number }
  | { op: "scan"; input: ScanCommandInput; limit: number };

/**
 * The read for a status query at `now`: `byNodeId` with a node (its rows then held to the query
 * by `matchesStatusQuery`), or a scan filtered by node where the table has no node index; with only a status, `byWatch` for an unfinished or refused one,
 * newest first from `since`; else a bounded scan. TTL deletion lags by up to two days, so
 * expired rows are filtered out here.
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
    // Keys only: no attribute to filter on until the rows are read.
    const input: QueryCommandInput = {
      TableName: tableName,
      IndexName: STATUS_INDEXES.byNode,
      KeyConditionExpression: "#node = :node",
      ExpressionAttributeNames: { "#node": A.node },
      ExpressionAttributeValues: { ":node": q.node },
    };
    names["#node"] = A.node;
    values[":node"] = q.node;
    const scan = scanInput(tableName, ["#node = :node", ...filters], names, values);
    return { op: "node", limit, input, scan };
  }
  const set = q.status ? watchSetOf(q.status) : undefined;
  if (set) {
    names["#wk"] = A.watch;
    const inputs = watchKeys(set).map((wk) =>
      query(STATUS_INDEXES.watch, "#wk = :wk AND #ts >= :since", { ":wk": wk }),
    );
    return { op: "watch", inputs, limit };
  }
  return { op: "scan", limit, input: scanInput(tableName, filters, names, values) };
}

/** A scan of the table's Application rows that match `filters` and `since`. */
function scanInput(
  tableName: string,
  filters: readonly string[],
  names: Record<string, string>,
  values: Record<string, unknown>,
): ScanCommandInput {
  // Quarantined bodies share the table; they have no `ts`, which the filter asks for anyway.
  return {
    TableName: tableName,
    FilterExpression: [...filters, "#ts >= :since"].join(" AND "),
    ExpressionAttributeNames: { ...names },
    ExpressionAttributeValues: { ...values },
  };
}

/**
 * Whether a row read whole for a status query matches it at `now`: its TTL not passed, the status
 * asked for, its message time at or after `since`. What the index queries' filters say.
 */
export function matchesStatusQuery(item: Record<string, unknown>, q: StatusQuery, now: Date): boolean {
  return (
    Number(item[A.ttl]) > Math.floor(now.getTime() / 1000) &&
    (!q.status || item[A.status] === q.status) &&
    Number(item[A.timestamp]) >= (q.since?.getTime() ?? 0)
  );
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
