import type { FleetAuditorError } from "@fleet-auditor/errors";
import type { ApplicationIdentity, StatusUpdate } from "./status-update.ts";

/** What a conditional write of one update did. */
export type ApplyOutcome = "applied" | "stale" | "duplicate";

/** A body that can never be processed, kept with its reason instead of being dropped. */
export interface QuarantineItem {
  /** The SQS message id (the item's key: quarantining the same message twice is one item). */
  sqsMessageId: string;
  reason: string;
  code: string;
  /** The raw body, cut to a size cap. */
  body: string;
  bodyBytes: number;
  truncated: boolean;
  receivedAt: string;
}

/** What the applications audit counts of a quarantined message. */
export type QuarantineNote = Pick<QuarantineItem, "code" | "receivedAt">;

/** One row of the status table, as queries return it. */
export interface StatusRow extends ApplicationIdentity {
  error?: { code?: number; reason?: string; message?: string };
  /** The winning message's header time (ISO) and id. */
  messageTime: string;
  msgId: string;
  kind: string;
  firstSeenAt: string;
  updatedAt: string;
  sizes: { option: number; reqBody: number; respBody: number };
}

/** A row as the applications audit reads it from the watched index: no sizes, message ids or kinds. */
export type WatchedRow = Omit<StatusRow, "msgId" | "kind" | "sizes" | "updatedAt">;

/** The rows an audit watches: in flight (`open`) or refused by the cloud (`refused`). */
export type WatchSet = "open" | "refused";

/** A read of one watched set: open rows whose latest message is before `before`, refused ones since `since`. */
export interface WatchQuery {
  set: WatchSet;
  before?: Date;
  since?: Date;
}

/** Filters of a status query; `since` compares with the message time. */
export interface StatusQuery {
  node?: string;
  status?: string;
  since?: Date;
  limit?: number;
}

/** What a write may be given: a signal that abandons it (its request aborted) once aborted. */
export interface WriteOptions {
  signal?: AbortSignal;
}

/** The Application status table. */
export interface ApplicationStatusStore {
  /**
   * Writes the update unless the row already holds a newer message or this msg_id. Throws when
   * the write fails: `isFinal` tells a refusal no retry can cure from a failure worth retrying.
   */
  apply(update: StatusUpdate, now: Date, options?: WriteOptions): Promise<ApplyOutcome>;
  /**
   * Whether an error `apply` threw is final: the database refused the write for good (an item or
   * a key over its limits), so retrying the records cannot help. Its `code` and `message` are
   * what a quarantine keeps of them. Throttling, timeouts and outages are not final. The store
   * decides: which of its database's errors are final is its knowledge, not its caller's.
   */
  isFinal(error: unknown): error is FleetAuditorError;
  quarantine(item: QuarantineItem, options?: WriteOptions): Promise<void>;
  /** Rows matching the query, newest message first; rows whose TTL passed before `now` are left out. */
  query(query: StatusQuery, now: Date): Promise<StatusRow[]>;
  /** The newest quarantined messages, with their excerpts, newest first. */
  quarantined(limit?: number): Promise<QuarantineItem[]>;
  /** The codes of messages quarantined at or after `since`, newest first, at most `limit`. */
  quarantinedCodes(since: Date, limit?: number): Promise<QuarantineNote[]>;
  /**
   * Every row of a watched set in the query's time range, from every shard, TTL-expired rows
   * left out. Throws when any shard cannot be read to its end: a partial read must resolve nothing.
   */
  watched(query: WatchQuery, now: Date): Promise<WatchedRow[]>;
}
