import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  paginateQuery,
  paginateScan,
  type QueryCommandInput,
  type ScanCommandInput,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import type {
  ApplicationStatusStore,
  ApplyOutcome,
  QuarantineItem,
  QuarantineNote,
  StatusQuery,
  StatusRow,
  StatusUpdate,
  WatchedRow,
  WatchQuery,
  WriteOptions,
} from "@fleet-auditor/metaserver";
import { batchGet } from "./batch-get.ts";
import { WriteRefusedError } from "./errors.ts";
import { isFinalWriteError } from "./final-write-errors.ts";
import { fromIndex, fromIndexes } from "./index-fallback.ts";
import { quarantineToItem, toQuarantineItem } from "./quarantine-item.ts";
import { STATUS_ATTRIBUTES, statusUpdateCommand, toRow } from "./status-item.ts";
import {
  matchesStatusQuery,
  NODE_SCAN_SEGMENTS,
  statusQueryInput,
  toWatchedRow,
  watchedQueryInputs,
  watchKeyRepair,
} from "./status-reads.ts";
import { RETIRING_STATUS_INDEXES, STATUS_INDEXES } from "./status-table.ts";

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

/**
 * The status table on DynamoDB. Each update is one conditional UpdateItem that wins only over an
 * older message (header timestamp, then status rank, then msg_id): never a read-then-write. What
 * it sends is built by the pure `status-item.ts`. A write DynamoDB refuses for good throws
 * `WriteRefusedError` (which errors are final: `final-write-errors.ts`); any other error is thrown
 * as the SDK threw it, to be retried.
 */
export class DynamoStatusStore implements ApplicationStatusStore {
  readonly #o: Required<DynamoStatusStoreOptions>;
  constructor(options: DynamoStatusStoreOptions) {
    this.#o = { finishedTtlHours: 72, unfinishedTtlDays: 30, quarantineTtlDays: 30, ...options };
  }

  async apply(u: StatusUpdate, now: Date, options: WriteOptions = {}): Promise<ApplyOutcome> {
    const send = { abortSignal: options.signal };
    try {
      await this.#o.client.send(
        new UpdateCommand(statusUpdateCommand(this.#o.tableName, u, now, this.#o)),
        send,
      );
      return "applied";
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return this.#refused(u, err, send);
      if (isFinalWriteError(err)) throw new WriteRefusedError(u.id, err);
      throw err;
    }
  }

  /** Whether `apply` refused the write for good (`WriteRefusedError`): its records are kept, not retried. */
  isFinal(error: unknown): error is WriteRefusedError {
    return error instanceof WriteRefusedError;
  }

  /**
   * Tells the winning message repeated (`duplicate`) from an older one (`stale`), for the metrics,
   * after the write was refused: by the row's msg_id, which DynamoDB returns with the refusal.
   */
  async #refused(
    u: StatusUpdate,
    err: ConditionalCheckFailedException,
    send: { abortSignal?: AbortSignal },
  ): Promise<ApplyOutcome> {
    let winner = (err.Item?.[STATUS_ATTRIBUTES.msgId] as { S?: string } | undefined)?.S;
    if (winner === undefined) {
      // DynamoDB returns the old item with the refusal; dynalite does not, so read it there.
      const old = await this.#o.client.send(
        new GetCommand({
          TableName: this.#o.tableName,
          Key: { [STATUS_ATTRIBUTES.id]: u.id },
          ProjectionExpression: STATUS_ATTRIBUTES.msgId,
        }),
        send,
      );
      winner = old.Item?.[STATUS_ATTRIBUTES.msgId] as string | undefined;
    }
    return winner !== undefined && u.msgIds.includes(winner) ? "duplicate" : "stale";
  }

  async quarantine(item: QuarantineItem, options: WriteOptions = {}): Promise<void> {
    try {
      await this.#o.client.send(
        new PutCommand({
          TableName: this.#o.tableName,
          Item: quarantineToItem(item, this.#o.quarantineTtlDays),
          // Quarantining a redelivered message again is a no-op.
          ConditionExpression: "attribute_not_exists(id)",
        }),
        { abortSignal: options.signal },
      );
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
    }
  }

  async query(q: StatusQuery, now: Date): Promise<StatusRow[]> {
    const read = statusQueryInput(this.#o.tableName, q, now);
    if (read.op === "node") {
      const node = read;
      const rows = await fromIndexes(
        [STATUS_INDEXES.byNode],
        async () => {
          const keys: Record<string, unknown>[] = [];
          for await (const page of paginateQuery({ client: this.#o.client }, node.input))
            for (const item of page.Items ?? [])
              keys.push({ [STATUS_ATTRIBUTES.id]: item[STATUS_ATTRIBUTES.id] });
          const rows = await batchGet(this.#o.client, this.#o.tableName, keys);
          return rows.filter((item) => matchesStatusQuery(item, q, now));
        },
        // A stage without a node index (`nodeIndex`), or one still backfilling it: the node's rows
        // from a scan of the table.
        () => this.#scan(node.scan, node.limit, NODE_SCAN_SEGMENTS),
      );
      return rows.sort(newestItemFirst).slice(0, node.limit).map(toRow);
    }
    if (read.op === "scan") return (await this.#scan(read.input, read.limit, 1)).map(toRow);
    const each = await Promise.all(read.inputs.map((input) => this.#newest(input, read.limit)));
    const ids = each
      .flat()
      .sort(newestItemFirst)
      .slice(0, read.limit)
      .map((item) => String(item[STATUS_ATTRIBUTES.id]));
    // byWatch projects what the audit reads; a status query returns whole rows.
    const keys = ids.map((id) => ({ [STATUS_ATTRIBUTES.id]: id }));
    return (await batchGet(this.#o.client, this.#o.tableName, keys)).sort(newestItemFirst).map(toRow);
  }

  async watched(q: WatchQuery, now: Date): Promise<WatchedRow[]> {
    const shards = await Promise.all(
      watchedQueryInputs(this.#o.tableName, q, now).map(async (input) => {
        const items: Record<string, unknown>[] = [];
        for await (const page of paginateQuery({ client: this.#o.client }, input))
          items.push(...(page.Items ?? []));
        return items;
      }),
    );
    return shards.flat().map(toWatchedRow);
  }

  /**
   * Gives rows written before the `byWatch` index (or under another shard count) their watch
   * key: one scan of the table, and for each Application row whose `wk` is missing or not what
   * its status and ID say, a conditional write of just that key, made only if the row still holds
   * the message it was read with, by its `msgId` (a newer message sets the key itself; its header
   * time can equal the old one's, so the time alone would let a Completed row be marked open).
   * Idempotent.
   */
  async reindex(): Promise<{ scanned: number; updated: number }> {
    let scanned = 0;
    let updated = 0;
    const A = STATUS_ATTRIBUTES;
    // What `watchKeyRepair` reads of an item.
    const pages = paginateScan(
      { client: this.#o.client },
      {
        TableName: this.#o.tableName,
        ProjectionExpression: "#id, #status, #wk, #ts, #msgId",
        ExpressionAttributeNames: {
          "#id": A.id,
          "#status": A.status,
          "#wk": A.watch,
          "#ts": A.timestamp,
          "#msgId": A.msgId,
        },
      },
    );
    for await (const page of pages) {
      for (const item of page.Items ?? []) {
        scanned++;
        const repair = watchKeyRepair(this.#o.tableName, item);
        if (!repair) continue;
        try {
          await this.#o.client.send(new UpdateCommand(repair));
          updated++;
        } catch (err) {
          // A newer message won meanwhile and wrote its own key.
          if (!(err instanceof ConditionalCheckFailedException)) throw err;
        }
      }
    }
    return { scanned, updated };
  }

  /**
   * The items a filtered scan matches, newest first, in `segments` parallel segments, each
   * stopping after the page at which the segments together have matched `limit` items: at most
   * `limit` items (of what was read), never more pages than the table holds.
   */
  async #scan(input: ScanCommandInput, limit: number, segments: number): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    const segment = async (Segment: number): Promise<void> => {
      const each = segments > 1 ? { ...input, Segment, TotalSegments: segments } : input;
      for await (const page of paginateScan({ client: this.#o.client }, each)) {
        // Another segment may have filled the limit while this page was read: keep it all the same.
        if (items.push(...(page.Items ?? [])) >= limit) return;
      }
    };
    await Promise.all(Array.from({ length: segments }, (_, n) => segment(n)));
    return items.sort(newestItemFirst).slice(0, limit);
  }

  /** The first `limit` items of an index query (newest first), reading no further. */
  async #newest(input: QueryCommandInput, limit: number): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    for await (const page of paginateQuery({ client: this.#o.client }, input)) {
      for (const item of page.Items ?? []) if (items.push(item) >= limit) return items;
    }
    return items;
  }

  /**
   * The newest quarantined messages, whole: their codes from `byQuarantineCode`, newest first,
   * then their items (with the excerpt) by id.
   */
  async quarantined(limit = 100): Promise<QuarantineItem[]> {
    const listed = await this.#quarantineIndex(limit);
    // The retiring index holds whole items; the new one only their keys and code.
    if (listed.every((item) => item.body !== undefined)) return listed.map(toQuarantineItem);
    const items = await batchGet(
      this.#o.client,
      this.#o.tableName,
      listed.map((item) => ({ [STATUS_ATTRIBUTES.id]: item[STATUS_ATTRIBUTES.id] })),
    );
    return items.map(toQuarantineItem).sort(newestQuarantined);
  }

  async quarantinedCodes(since: Date, limit = 1_000): Promise<QuarantineNote[]> {
    const items = await this.#quarantineIndex(limit, since);
    return items.map((item) => ({
      code: String(item.code ?? ""),
      receivedAt: String(item.receivedAt ?? ""),
    }));
  }

  /**
   * Up to `limit` entries of the quarantine index, newest first, received at or after `since`:
   * `byQuarantineCode` (keys and code), or the retiring `byQuarantine` (whole items) while the
   * new one cannot be read.
   */
  async #quarantineIndex(limit: number, since?: Date): Promise<Record<string, unknown>[]> {
    return fromIndex(STATUS_INDEXES.quarantine, RETIRING_STATUS_INDEXES.quarantine, (index) =>
      this.#newest(
        {
          TableName: this.#o.tableName,
          IndexName: index,
          KeyConditionExpression: since ? "qk = :q AND receivedAt >= :since" : "qk = :q",
          ExpressionAttributeValues: { ":q": "Q", ...(since ? { ":since": since.toISOString() } : {}) },
          ScanIndexForward: false,
        },
        limit,
      ),
    );
  }
}

/**
 * Status items, the newest message first by the stored time itself (`toRow` shows every time past
 * the year 9999 as its last instant, which would tie them), then by id: the order never rests on
 * the order in which a read answered.
 */
function newestItemFirst(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const [ts, id] = [STATUS_ATTRIBUTES.timestamp, STATUS_ATTRIBUTES.id];
  return Number(b[ts]) - Number(a[ts]) || String(a[id]).localeCompare(String(b[id]));
}

function newestQuarantined(a: QuarantineItem, b: QuarantineItem): number {
  return a.receivedAt < b.receivedAt ? 1 : a.receivedAt > b.receivedAt ? -1 : 0;
}
