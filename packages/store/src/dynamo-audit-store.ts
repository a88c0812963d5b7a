import {
  ConditionalCheckFailedException,
  TransactionCanceledException,
  TransactionConflictException,
} from "@aws-sdk/client-dynamodb";
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
} from "@aws-sdk/lib-dynamodb";
import {
  type AuditHealth,
  type AuditStateStore,
  type CommitFence,
  type CommitResult,
  type EndedEpisode,
  type Finding,
  HEALTHY,
  type HistoryCommit,
  type IncidentRecord,
  type RunRecord,
  type SnapshotChange,
  type SnapshotEntry,
  type SnapshotFingerprint,
} from "@fleet-auditor/audit";
import { itemKey } from "./audit-table.ts";
import { batchGet } from "./batch-get.ts";
import { batchWrite } from "./batch-write.ts";
import { LeaseLostError } from "./errors.ts";
import { decodeFingerprint, encodeFingerprint, fingerprintOf } from "./fingerprint-codec.ts";
import { historyItems, recordsOf } from "./incident-items.ts";
import { SnapshotCache } from "./snapshot-cache.ts";
import { readSnapshot } from "./snapshot-read.ts";
import { SnapshotVersions } from "./snapshot-version.ts";

/** Settings of `DynamoAuditStore`. */
export interface DynamoAuditStoreOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
}

/**
 * Audit state in one DynamoDB table: one item per flagged runtime per audit (never one item per
 * run: items are capped at 400 KB), a ledger item per run with a TTL, and a lease per audit.
 * Commits are fenced by the lease (one conditional write) and then batched. Each commit changes
 * the snapshot's version item, so a store kept between runs (a warm Lambda's) reads the whole
 * snapshot again only when it changed since it last read or wrote it; and settles it with the
 * snapshot's fingerprint, so that a run that changes nothing, in a new container too, reads one
 * item (`loadFingerprint`, `unchangedSince`).
 */
export class DynamoAuditStore implements AuditStateStore {
  readonly #client: DynamoDBDocumentClient;
  readonly #table: string;
  readonly #snapshots = new SnapshotCache();
  readonly #versions: SnapshotVersions;

  constructor(options: DynamoAuditStoreOptions) {
    this.#client = options.client;
    this.#table = options.tableName;
    this.#versions = new SnapshotVersions(options.client, options.tableName);
  }

  /**
   * Every snapshot item of the audit: as kept from this store's last read or commit when the
   * version item says nothing changed since, else read in parallel over disjoint key ranges
   * (`readSnapshot`). Entries are frozen; the Map is the caller's.
   */
  async loadSnapshot(audit: string): Promise<Map<string, SnapshotEntry>> {
    // The version first: a read that a commit overlaps is then kept under a version already gone.
    const version = await this.#versions.read(audit);
    const kept = this.#snapshots.get(audit, version);
    if (kept) return kept;
    const entries = await readSnapshot(this.#client, this.#table, itemKey.snapshot(audit, "").pk);
    return this.#snapshots.keep(audit, version, entries);
  }

  /**
   * The fingerprint settled with the snapshot's version, or undefined while a commit is under way,
   * after one that could not write it (it had not read the snapshot, or the fingerprint was too
   * large), before the first commit of this release, or when it cannot be decoded. A store that
   * kept the fingerprint of the version it finds reads the version alone.
   */
  async loadFingerprint(audit: string): Promise<SnapshotFingerprint | undefined> {
    const kept = this.#snapshots.fingerprint(audit);
    let read = await this.#versions.readWith(audit, kept === undefined);
    if (kept && read.version === kept.version) return kept.print;
    // Another store committed since: its fingerprint, in one more read.
    if (kept) read = await this.#versions.readWith(audit, true);
    const print = read.fingerprint && decodeFingerprint(read.fingerprint);
    if (print) this.#snapshots.keepFingerprint(audit, read.version, print);
    return print || undefined;
  }

  async commit(
    audit: string,
    changes: readonly SnapshotChange[],
    fence: CommitFence,
    problemKey?: (f: Finding) => string,
    history?: HistoryCommit,
  ): Promise<CommitResult> {
    const result: CommitResult = { written: 0, deleted: 0 };
    const told = history ? historyItems(audit, history) : [];
    if (changes.length === 0 && told.length === 0) return result;
    // Fencing: one conditional write proves this run still owns the audit, so no other run can
    // interleave; the changes themselves then go in batches of 25 instead of one request each.
    if (!(await this.#renewLease(audit, fence.owner, fence.until))) {
      throw new LeaseLostError(audit, fence.owner);
    }
    if (changes.length === 0) {
      await batchWrite(this.#client, this.#table, told);
      return result;
    }
    // Marked before the first item is written, settled after the last: a store that kept the
    // snapshot at another version, or read it meanwhile, reads it again. The fingerprint is of
    // the snapshot this store read at the version the mark replaced, with these changes: any
    // other commit between would have moved that version, and then none is written.
    const token = crypto.randomUUID();
    const before = await this.#versions.markWriting(audit, token);
    let settled = false;
    let after: Map<string, SnapshotEntry> | undefined;
    let print: SnapshotFingerprint | undefined;
    try {
      await batchWrite(this.#client, this.#table, [
        ...changes.map((c) =>
          c.op === "put"
            ? { PutRequest: { Item: this.#snapshotItem(audit, c.entry) } }
            : { DeleteRequest: { Key: itemKey.snapshot(audit, c.key) } },
        ),
        ...told,
      ]);
      after = this.#snapshots.applied(audit, before, changes);
      print = after && problemKey ? fingerprintOf(after, problemKey) : undefined;
      const bytes = print && encodeFingerprint(print);
      settled = await this.#versions.settle(audit, token, bytes);
      if (!bytes) print = undefined;
    } finally {
      if (settled && after) this.#snapshots.settled(audit, before, token, after, print);
      else this.#snapshots.forget(audit);
    }
    for (const c of changes) c.op === "put" ? result.written++ : result.deleted++;
    return result;
  }

  async loadEpisodes(audit: string): Promise<EndedEpisode[]> {
    const out = await this.#client.send(
      new GetCommand({ TableName: this.#table, Key: itemKey.episodes(audit), ConsistentRead: true }),
    );
    return (out.Item?.episodes as EndedEpisode[] | undefined) ?? [];
  }

  async loadIncidents(audit: string, keys: readonly string[]): Promise<Map<string, IncidentRecord>> {
    const items = await batchGet(
      this.#client,
      this.#table,
      keys.flatMap((k) => [
        itemKey.incident(audit, k),
        itemKey.incidentAck(audit, k),
        itemKey.incidentPagerResolved(audit, k),
      ]),
    );
    return recordsOf(items);
  }

  #snapshotItem(audit: string, entry: SnapshotEntry): Record<string, unknown> {
    return { ...itemKey.snapshot(audit, entry.key), version: entry.version, entry };
  }

  async findRun(audit: string, runKey: string): Promise<RunRecord | undefined> {
    const out = await this.#client.send(
      new GetCommand({ TableName: this.#table, Key: itemKey.run(audit, runKey), ConsistentRead: true }),
    );
    return out.Item ? toRunRecord(out.Item) : undefined;
  }

  async recordRun(record: RunRecord): Promise<boolean> {
    try {
      await this.#client.send(new PutCommand(this.#recordPut(record)));
      return true;
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return false;
      throw err;
    }
  }

  /**
   * The ledger record and the lease's release in one `TransactWriteItems` (a round trip fewer at
   * the end of every run; a transaction costs twice the write units of the two writes, a few
   * tenths of a unit for a steady run's record). When one condition fails the transaction writes
   * nothing, and the other write goes alone, as `recordRun` and `releaseLease` would have done it:
   * the key already recorded (a second delivery that finished first) still releases the lease,
   * a lease another owner took over still lets the record be written. A transaction canceled
   * for another reason (a conflict, throttling) is not retried by the SDK: the two writes go
   * instead, this once. A server without transactions (dynalite) gets the two writes in that
   * order, the record first.
   */
  async finishRun(record: RunRecord, owner: string): Promise<boolean> {
    const known = transactionsBehind.get(this.#client);
    if (known !== false) {
      try {
        await this.#client.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: this.#recordPut(record) },
              { Delete: this.#leaseDelete(record.audit, owner) },
            ],
          }),
        );
        transactionsBehind.set(this.#client, true);
        return true;
      } catch (err) {
        const [recordReason, leaseReason] = canceled(err);
        if (recordReason === "ConditionalCheckFailed") {
          if (leaseReason !== "ConditionalCheckFailed") await this.releaseLease(record.audit, owner);
          return false;
        }
        if (leaseReason === "ConditionalCheckFailed") return this.recordRun(record);
        // Canceled for another reason (a conflict with a lease being taken, throttling), which
        // the SDK does not retry: this once, the two writes, which it does.
        if (!(err instanceof TransactionCanceledException)) {
          if (known === true || !unsupported(err)) throw err;
          transactionsBehind.set(this.#client, false);
        }
      }
    }
    const recorded = await this.recordRun(record);
    await this.releaseLease(record.audit, owner);
    return recorded;
  }

  #recordPut(record: RunRecord) {
    return {
      TableName: this.#table,
      Item: {
        ...itemKey.run(record.audit, record.runKey),
        summary: record.summary,
        ttl: record.expiresAt,
      },
      ConditionExpression: "attribute_not_exists(pk)",
    };
  }

  #leaseDelete(audit: string, owner: string) {
    return {
      TableName: this.#table,
      Key: itemKey.lease(audit),
      ConditionExpression: "#owner = :owner",
      ExpressionAttributeNames: { "#owner": "owner" },
      ExpressionAttributeValues: { ":owner": owner },
    };
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
    // Free, expired (a crashed run), or already ours (a retry of the same invocation).
    return this.#putLease(
      audit,
      owner,
      until,
      "attribute_not_exists(pk) OR expiresAtMs < :now OR #owner = :owner",
      {
        ":now": now.getTime(),
      },
    );
  }

  /** Extends the lease only if `owner` still holds it: the fence of a commit. */
  #renewLease(audit: string, owner: string, until: Date): Promise<boolean> {
    return this.#putLease(audit, owner, until, "#owner = :owner", {});
  }

  async #putLease(
    audit: string,
    owner: string,
    until: Date,
    condition: string,
    values: Record<string, unknown>,
  ): Promise<boolean> {
    try {
      await this.#client.send(
        new PutCommand({
          TableName: this.#table,
          Item: { ...itemKey.lease(audit), owner, expiresAtMs: until.getTime() },
          ConditionExpression: condition,
          ExpressionAttributeNames: { "#owner": "owner" },
          ExpressionAttributeValues: { ...values, ":owner": owner },
        }),
      );
      return true;
    } catch (err) {
      // A transaction on the lease item under way (its holder recording its run and releasing
      // it): the lease is another's until that ends.
      if (err instanceof ConditionalCheckFailedException || err instanceof TransactionConflictException)
        return false;
      throw err;
    }
  }

  async beginPublishing(audit: string, fence: CommitFence): Promise<void> {
    if (!(await this.#renewLease(audit, fence.owner, fence.until)))
      throw new LeaseLostError(audit, fence.owner);
    await this.#client.send(
      new PutCommand({ TableName: this.#table, Item: { ...itemKey.publishing(audit), runId: fence.owner } }),
    );
  }

  async unfinishedPublishing(audit: string): Promise<string | undefined> {
    const out = await this.#client.send(
      new GetCommand({ TableName: this.#table, Key: itemKey.publishing(audit), ConsistentRead: true }),
    );
    return out.Item ? String(out.Item.runId) : undefined;
  }

  async endPublishing(audit: string): Promise<void> {
    await this.#client.send(new DeleteCommand({ TableName: this.#table, Key: itemKey.publishing(audit) }));
  }

  async loadHealth(audit: string): Promise<AuditHealth> {
    const out = await this.#client.send(
      new GetCommand({ TableName: this.#table, Key: itemKey.health(audit), ConsistentRead: true }),
    );
    return (out.Item?.health as AuditHealth | undefined) ?? HEALTHY;
  }

  async saveHealth(audit: string, health: AuditHealth): Promise<void> {
    await this.#client.send(
      new PutCommand({ TableName: this.#table, Item: { ...itemKey.health(audit), health } }),
    );
  }

  async describeLease(audit: string): Promise<{ owner: string; expiresAtMs: number } | undefined> {
    const out = await this.#client.send(
      new GetCommand({ TableName: this.#table, Key: itemKey.lease(audit), ConsistentRead: true }),
    );
    if (!out.Item) return undefined;
    return { owner: String(out.Item.owner), expiresAtMs: Number(out.Item.expiresAtMs) };
  }

  async releaseShownLease(audit: string, shown: { owner: string; expiresAtMs: number }): Promise<boolean> {
    try {
      await this.#client.send(
        new DeleteCommand({
          TableName: this.#table,
          Key: itemKey.lease(audit),
          // Owner and expiry both: the same owner extending its lease proves that run alive.
          ConditionExpression: "#owner = :owner AND expiresAtMs = :expires",
          ExpressionAttributeNames: { "#owner": "owner" },
          ExpressionAttributeValues: { ":owner": shown.owner, ":expires": shown.expiresAtMs },
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
      await this.#client.send(new DeleteCommand(this.#leaseDelete(audit, owner)));
    } catch (err) {
      // Someone took over an expired lease; it is theirs to release.
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
    }
  }
}

/**
 * Whether the server behind a client takes `TransactWriteItems`, learnt at its first finish and
 * kept per client, not per store: a store made anew for each run on one client (the CLI, a test)
 * asks a server without them (dynalite) once, not once a run.
 */
const transactionsBehind = new WeakMap<DynamoDBDocumentClient, boolean>();

function toRunRecord(item: Record<string, unknown>): RunRecord {
  const summary = item.summary as RunRecord["summary"];
  return { audit: summary.audit, runKey: String(item.sk), summary, expiresAt: Number(item.ttl) };
}

/** Why each item of a canceled transaction failed (`ConditionalCheckFailed`, `None`…); none for another error. */
function canceled(err: unknown): (string | undefined)[] {
  if (!(err instanceof TransactionCanceledException)) return [];
  return (err.CancellationReasons ?? []).map((r) => r.Code);
}

/** A server that does not know the operation (dynalite answers `UnknownOperationException`). */
function unsupported(err: unknown): boolean {
  const name = (err as { name?: string } | undefined)?.name ?? "";
  return name === "UnknownOperationException" || name === "UnknownOperation";
}
