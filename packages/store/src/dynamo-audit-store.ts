import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  paginateQuery,
  QueryCommand,
} from "@aws-sdk/lib-dynamodb";
import type {
  AuditStateStore,
  CommitResult,
  RunRecord,
  SnapshotChange,
  SnapshotEntry,
} from "@fleet-auditor/audit";
import { itemKey } from "./audit-table.ts";
import { batchWrite } from "./batch-write.ts";

/** Settings of `DynamoAuditStore`. */
export interface DynamoAuditStoreOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** Conditional writes in flight at once. Default 8. */
  writeConcurrency?: number;
}

/**
 * Audit state in one DynamoDB table: one item per flagged runtime per audit (never one item per
 * run: items are capped at 400 KB), a ledger item per run with a TTL, and a lease per audit.
 * Writes tied to a transition are conditional on the item's version, so each happens once;
 * the others go in batches.
 */
export class DynamoAuditStore implements AuditStateStore {
  readonly #client: DynamoDBDocumentClient;
  readonly #table: string;
  readonly #concurrency: number;

  constructor(options: DynamoAuditStoreOptions) {
    this.#client = options.client;
    this.#table = options.tableName;
    this.#concurrency = options.writeConcurrency ?? 8;
  }

  async loadSnapshot(audit: string): Promise<Map<string, SnapshotEntry>> {
    const entries = new Map<string, SnapshotEntry>();
    const pages = paginateQuery(
      { client: this.#client },
      {
        TableName: this.#table,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :rt)",
        ExpressionAttributeValues: { ":pk": itemKey.snapshot(audit, "").pk, ":rt": "RT#" },
        ConsistentRead: true,
      },
    );
    for await (const page of pages) {
      for (const item of page.Items ?? []) {
        const entry = item.entry as SnapshotEntry;
        entries.set(entry.instanceID, entry);
      }
    }
    return entries;
  }

  async commit(audit: string, changes: readonly SnapshotChange[]): Promise<CommitResult> {
    const result: CommitResult = { written: 0, deleted: 0, conflicts: 0 };
    const exactlyOnce = changes.filter((c) => c.transition !== undefined);
    const batched = changes.filter((c) => c.transition === undefined);
    await batchWrite(
      this.#client,
      this.#table,
      batched.map((c) =>
        c.op === "put"
          ? { PutRequest: { Item: this.#snapshotItem(audit, c.entry) } }
          : { DeleteRequest: { Key: itemKey.snapshot(audit, c.instanceID) } },
      ),
    );
    for (const c of batched) c.op === "put" ? result.written++ : result.deleted++;
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < exactlyOnce.length) {
        const change = exactlyOnce[next++] as SnapshotChange;
        try {
          await this.#conditional(audit, change);
          change.op === "put" ? result.written++ : result.deleted++;
        } catch (err) {
          if (!(err instanceof ConditionalCheckFailedException)) throw err;
          result.conflicts++;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.#concurrency, exactlyOnce.length) }, worker));
    return result;
  }

  async #conditional(audit: string, change: SnapshotChange): Promise<void> {
    if (change.op === "delete") {
      await this.#client.send(
        new DeleteCommand({
          TableName: this.#table,
          Key: itemKey.snapshot(audit, change.instanceID),
          ConditionExpression: "version = :v",
          ExpressionAttributeValues: { ":v": change.expectedVersion },
        }),
      );
      return;
    }
    const fresh = change.expectedVersion === null;
    await this.#client.send(
      new PutCommand({
        TableName: this.#table,
        Item: this.#snapshotItem(audit, change.entry),
        ConditionExpression: fresh ? "attribute_not_exists(pk)" : "version = :v",
        ExpressionAttributeValues: fresh ? undefined : { ":v": change.expectedVersion },
      }),
    );
  }

  #snapshotItem(audit: string, entry: SnapshotEntry): Record<string, unknown> {
    return { ...itemKey.snapshot(audit, entry.instanceID), version: entry.version, entry };
  }

  async findRun(audit: string, runKey: string): Promise<RunRecord | undefined> {
    const out = await this.#client.send(
      new GetCommand({ TableName: this.#table, Key: itemKey.run(audit, runKey), ConsistentRead: true }),
    );
    return out.Item ? toRunRecord(out.Item) : undefined;
  }

  async recordRun(record: RunRecord): Promise<boolean> {
    try {
      await this.#client.send(
        new PutCommand({
          TableName: this.#table,
          Item: {
            ...itemKey.run(record.audit, record.runKey),
            summary: record.summary,
            ttl: record.expiresAt,
          },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      );
      return true;
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return false;
      throw err;
    }
  }

  async recentRuns(audit: string, limit: number): Promise<RunRecord[]> {
    const out = await this.#client.send(
      new QueryCommand({
        TableName: this.#table,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": itemKey.run(audit, "").pk },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return (out.Items ?? []).map(toRunRecord);
  }

  async acquireLease(audit: string, owner: string, now: Date, until: Date): Promise<boolean> {
    try {
      await this.#client.send(
        new PutCommand({
          TableName: this.#table,
          Item: { ...itemKey.lease(audit), owner, expiresAtMs: until.getTime() },
          // Free, expired (a crashed run), or already ours (a retry of the same invocation).
          ConditionExpression: "attribute_not_exists(pk) OR expiresAtMs < :now OR #owner = :owner",
          ExpressionAttributeNames: { "#owner": "owner" },
          ExpressionAttributeValues: { ":now": now.getTime(), ":owner": owner },
        }),
      );
      return true;
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return false;
      throw err;
    }
  }

  async releaseLease(audit: string, owner: string): Promise<void> {
    try {
      await this.#client.send(
        new DeleteCommand({
          TableName: this.#table,
          Key: itemKey.lease(audit),
          ConditionExpression: "#owner = :owner",
          ExpressionAttributeNames: { "#owner": "owner" },
          ExpressionAttributeValues: { ":owner": owner },
        }),
      );
    } catch (err) {
      // Someone took over an expired lease; it is theirs to release.
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
    }
  }
}

function toRunRecord(item: Record<string, unknown>): RunRecord {
  const summary = item.summary as RunRecord["summary"];
  return { audit: summary.audit, runKey: String(item.sk), summary, expiresAt: Number(item.ttl) };
}
