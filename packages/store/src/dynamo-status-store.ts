import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  paginateQuery,
  paginateScan,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import {
  type ApplicationStatusStore,
  type ApplyOutcome,
  FINISHED,
  type QuarantineItem,
  type StatusQuery,
  type StatusRow,
  type StatusUpdate,
} from "@fleet-auditor/metaserver";
import { STATUS_INDEXES } from "./status-table.ts";

/** Settings of `DynamoStatusStore`. */
export interface DynamoStatusStoreOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** Finished Applications (Approved, Rejected, Failed, Completed) age out after this. Default 72 h. */
  finishedTtlHours?: number;
  /** Unfinished ones too, much later, so that a stuck row is seen but not kept forever. Default 30 days. */
  unfinishedTtlDays?: number;
  /** Quarantined bodies are kept this long. Default 30 days. */
  quarantineTtlDays?: number;
}

const Q_PREFIX = "QUARANTINE#";

/**
 * The status table on DynamoDB. Each update is one conditional UpdateItem that wins only over an
 * older message (header timestamp, then status rank, then msg_id): never a read-then-write.
 */
export class DynamoStatusStore implements ApplicationStatusStore {
  readonly #o: Required<DynamoStatusStoreOptions>;
  constructor(options: DynamoStatusStoreOptions) {
    this.#o = { finishedTtlHours: 72, unfinishedTtlDays: 30, quarantineTtlDays: 30, ...options };
  }

  async apply(u: StatusUpdate, now: Date): Promise<ApplyOutcome> {
    try {
      await this.#o.client.send(new UpdateCommand(statusUpdateCommand(this.#o.tableName, u, now, this.#o)));
      return "applied";
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
      return this.#refused(u, err);
    }
  }

  /** Tells a repeated message from an older one; only for the metrics, after the write was refused. */
  async #refused(u: StatusUpdate, err: ConditionalCheckFailedException): Promise<ApplyOutcome> {
    let known = (err.Item?.msgIds as { SS?: string[] } | undefined)?.SS;
    if (!known) {
      // DynamoDB returns the old item with the error; dynalite does not, so read it here.
      const old = await this.#o.client.send(
        new GetCommand({ TableName: this.#o.tableName, Key: { id: u.id }, ProjectionExpression: "msgIds" }),
      );
      known = [...((old.Item?.msgIds as Set<string> | undefined) ?? [])];
    }
    return u.msgIds.every((m) => known?.includes(m)) ? "duplicate" : "stale";
  }

  async quarantine(item: QuarantineItem): Promise<void> {
    try {
      await this.#o.client.send(
        new PutCommand({
          TableName: this.#o.tableName,
          Item: {
            id: `${Q_PREFIX}${item.sqsMessageId}`,
            qk: "Q",
            ...item,
            ttl: Math.floor(Date.parse(item.receivedAt) / 1000) + this.#o.quarantineTtlDays * 86_400,
          },
          // Quarantining a redelivered message again is a no-op.
          ConditionExpression: "attribute_not_exists(id)",
        }),
      );
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
    }
  }

  async query(q: StatusQuery): Promise<StatusRow[]> {
    const nowS = Math.floor(Date.now() / 1000);
    const since = q.since?.getTime() ?? 0;
    const names: Record<string, string> = { "#ts": "ts", "#ttl": "ttl" };
    const values: Record<string, unknown> = { ":since": since, ":nowS": nowS };
    // TTL deletion lags by up to two days: expired rows are filtered out here.
    const filters = ["#ttl > :nowS"];
    let input: { IndexName: string; KeyConditionExpression: string } | undefined;
    if (q.node) {
      names["#node"] = "node";
      values[":node"] = q.node;
      if (q.status) {
        names["#status"] = "status";
        values[":status"] = q.status;
        filters.push("#status = :status");
      }
      input = { IndexName: STATUS_INDEXES.byNode, KeyConditionExpression: "#node = :node AND #ts >= :since" };
    } else if (q.status) {
      names["#status"] = "status";
      values[":status"] = q.status;
      input = {
        IndexName: STATUS_INDEXES.byStatus,
        KeyConditionExpression: "#status = :status AND #ts >= :since",
      };
    }
    const rows: StatusRow[] = [];
    const limit = q.limit ?? 1000;
    if (input) {
      const pages = paginateQuery(
        { client: this.#o.client },
        {
          ...input,
          TableName: this.#o.tableName,
          FilterExpression: filters.join(" AND "),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ScanIndexForward: false,
        },
      );
      for await (const page of pages) {
        for (const item of page.Items ?? []) if (rows.push(toRow(item)) >= limit) return rows;
      }
      return rows;
    }
    // Neither node nor status: a filtered scan (fine for a status table; prefer the indexed queries).
    names["#status"] = "status";
    filters.push("attribute_exists(#status)", "#ts >= :since");
    const pages = paginateScan(
      { client: this.#o.client },
      {
        TableName: this.#o.tableName,
        FilterExpression: filters.join(" AND "),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    );
    for await (const page of pages) for (const item of page.Items ?? []) rows.push(toRow(item));
    return rows.sort((a, b) => (a.messageTime < b.messageTime ? 1 : -1)).slice(0, limit);
  }

  async quarantined(limit = 100): Promise<QuarantineItem[]> {
    const out: QuarantineItem[] = [];
    const pages = paginateQuery(
      { client: this.#o.client },
      {
        TableName: this.#o.tableName,
        IndexName: STATUS_INDEXES.quarantine,
        KeyConditionExpression: "qk = :q",
        ExpressionAttributeValues: { ":q": "Q" },
        ScanIndexForward: false,
      },
    );
    for await (const page of pages) {
      for (const item of page.Items ?? []) {
        const { id: _id, qk: _qk, ttl: _ttl, ...rest } = item;
        out.push(rest as QuarantineItem);
        if (out.length >= limit) return out;
      }
    }
    return out;
  }
}

function toRow(item: Record<string, unknown>): StatusRow {
  const row: StatusRow = {
    id: String(item.id),
    key: String(item.key ?? ""),
    group: String(item.grp ?? ""),
    version: String(item.ver ?? ""),
    resource: String(item.res ?? ""),
    namespace: String(item.ns ?? ""),
    name: String(item.name ?? ""),
    verb: String(item.verb ?? ""),
    subresource: String(item.subresource ?? ""),
    node: String(item.node ?? ""),
    status: String(item.status ?? ""),
    reason: String(item.reason ?? ""),
    messageTime: new Date(Number(item.ts)).toISOString(),
    msgId: String(item.msgId ?? ""),
    kind: String(item.kind ?? ""),
    firstSeenAt: String(item.firstSeenAt ?? ""),
    updatedAt: String(item.updatedAt ?? ""),
    sizes: (item.sizes as StatusRow["sizes"]) ?? { option: 0, reqBody: 0, respBody: 0 },
  };
  if (item.errorCode !== undefined || item.errorReason !== undefined || item.errorMessage !== undefined) {
    row.error = {};
    if (item.errorCode !== undefined) row.error.code = Number(item.errorCode);
    if (item.errorReason !== undefined) row.error.reason = String(item.errorReason);
    if (item.errorMessage !== undefined) row.error.message = String(item.errorMessage);
  }
  return row;
}

/**
 * The conditional UpdateItem for one status update: it writes only over an older message
 * (timestamp, then status rank, then msg_id), keeps `firstSeenAt`, and records the msg_ids.
 */
export function statusUpdateCommand(
  tableName: string,
  u: StatusUpdate,
  now: Date,
  ttl: { finishedTtlHours: number; unfinishedTtlDays: number },
): ConstructorParameters<typeof UpdateCommand>[0] {
  const at = now.toISOString();
  const ttlMs = FINISHED.has(u.status)
    ? ttl.finishedTtlHours * 3_600_000
    : ttl.unfinishedTtlDays * 86_400_000;
  const fields: Record<string, unknown> = {
    key: u.key,
    grp: u.group,
    ver: u.version,
    res: u.resource,
    ns: u.namespace,
    name: u.name,
    verb: u.verb,
    subresource: u.subresource,
    status: u.status,
    reason: u.reason,
    ts: u.timestamp,
    rank: u.rank,
    msgId: u.msgId,
    kind: u.kind,
    appTimestamp: u.appTimestamp,
    sizes: u.sizes,
    updatedAt: at,
    ttl: Math.floor((now.getTime() + ttlMs) / 1000),
  };
  // An empty node cannot be an index key: leave it out (the row is then not in byNode).
  if (u.node) fields.node = u.node;
  const names: Record<string, string> = { "#id": "id", "#firstSeenAt": "firstSeenAt", "#msgIds": "msgIds" };
  const values: Record<string, unknown> = { ":now": at, ":msgIds": new Set(u.msgIds) };
  const sets = Object.entries(fields).map(([k, v]) => {
    names[`#${k}`] = k;
    values[`:${k}`] = v;
    return `#${k} = :${k}`;
  });
  sets.push("#firstSeenAt = if_not_exists(#firstSeenAt, :now)");
  const removes: string[] = [];
  for (const [attr, value] of [
    ["errorCode", u.errorCode],
    ["errorReason", u.errorReason],
    ["errorMessage", u.errorMessage],
  ] as const) {
    names[`#${attr}`] = attr;
    if (value === undefined) removes.push(`#${attr}`);
    else {
      values[`:${attr}`] = value;
      sets.push(`#${attr} = :${attr}`);
    }
  }
  if (!u.node) {
    names["#node"] = "node";
    removes.push("#node");
  }
  return {
    TableName: tableName,
    Key: { id: u.id },
    UpdateExpression: `SET ${sets.join(", ")} ADD #msgIds :msgIds${removes.length ? ` REMOVE ${removes.join(", ")}` : ""}`,
    ConditionExpression:
      "attribute_not_exists(#id) OR #ts < :ts OR (#ts = :ts AND #rank < :rank) OR (#ts = :ts AND #rank = :rank AND #msgId < :msgId)",
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ReturnValuesOnConditionCheckFailure: "ALL_OLD",
  };
}
