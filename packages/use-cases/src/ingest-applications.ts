import { createHash } from "node:crypto";
import { FleetAuditorError } from "@fleet-auditor/errors";
import {
  type ApplicationStatusStore,
  coalesce,
  decodeMessage,
  MAX_FUTURE_SKEW_MS,
  MetaserverParseError,
  refuseFutureTime,
  type StatusUpdate,
  toUpdate,
} from "@fleet-auditor/metaserver";
import type { RunLogger } from "./ports.ts";
import { quarantineExcerpt } from "./quarantine-excerpt.ts";

/** One queued message: an SQS record's id and body. */
export interface QueuedMessage {
  messageId: string;
  body: string;
  /** Why the record itself cannot be processed (it goes to the quarantine as `MS_RECORD`). */
  problem?: string;
  /** The record had no `messageId`; this one was made from its body. */
  unnamed?: boolean;
  /**
   * When SQS received the message (its `SentTimestamp`), ms: a header time further than
   * `MAX_FUTURE_SKEW_MS` after it is quarantined. Without it (the CLI), the handler's clock.
   */
  sentAt?: number;
}

/** What a batch did, for logs, metrics and the CLI. */
export interface IngestCounts {
  records: number;
  /** Rows written. */
  applied: number;
  /** Updates ignored because the row (or the batch) held a newer message. */
  stale: number;
  /** Updates ignored because their msg_id was already applied. */
  duplicate: number;
  /** Bodies that can never be parsed, kept with their reason. */
  quarantined: number;
  /** Updates or quarantine writes that failed for a transient reason; their records are retried. */
  failed: number;
  /** Records handed back unwritten because the batch's deadline came (each spends one receive). */
  deferred: number;
}

/** Everything an ingest needs. */
export interface IngestDeps {
  store: ApplicationStatusStore;
  clock?: () => Date;
  log?: RunLogger;
  /** Quarantined bodies are kept as a redacted excerpt of up to this many bytes. Default 4 KiB (`QUARANTINE_EXCERPT_BYTES`). */
  bodyCapBytes?: number;
  /** Writes in flight at once. Default 8. */
  writeConcurrency?: number;
  /**
   * Aborted at the batch's deadline (the Lambda's remaining time minus a margin): no write starts
   * after it, writes in flight are abandoned (their requests aborted), and every record not seen
   * written is handed back, so that Lambda never kills the batch midway. None: no deadline (the CLI).
   */
  deadline?: AbortSignal;
}

/**
 * Processes one SQS batch of metaserver messages into the status table, and returns the ids of
 * the records to retry. Nothing is dropped silently.
 *
 * 1. Decode each body; quarantine what can never be parsed, and a header time more than
 *    `MAX_FUTURE_SKEW_MS` after SQS received the message (it would win every later merge).
 * 2. Fold the batch to one update per Application ID, and write each with one conditional
 *    UpdateItem, `writeConcurrency` at a time.
 *    A write the store calls final (`store.isFinal`: refused for good, as an ID over DynamoDB's
 *    key limit) quarantines its records with the store's code and reason.
 * 3. Hand back the records whose write or quarantine failed for a transient reason, and, once
 *    `deadline` is aborted, every record not yet seen written.
 */
export async function ingestBatch(
  deps: IngestDeps,
  messages: readonly QueuedMessage[],
): Promise<{ failedMessageIds: string[]; counts: IngestCounts }> {
  const now = (deps.clock ?? (() => new Date()))();
  const counts: IngestCounts = {
    records: messages.length,
    applied: 0,
    stale: 0,
    duplicate: 0,
    quarantined: 0,
    failed: 0,
    deferred: 0,
  };
  const signal = deps.deadline;
  const late = (): boolean => signal?.aborted === true;
  const failed = new Set<string>();
  const deferred = new Set<string>();
  /** A write of these records did not land: past the deadline it is the deadline's doing. */
  const retry = (ids: Iterable<string>): "deferred" | "failed" => {
    const why = late() ? "deferred" : "failed";
    for (const id of ids) (why === "deferred" ? deferred : failed).add(id);
    return why;
  };
  const byId = new Map(messages.map((m) => [m.messageId, m]));
  const updates: StatusUpdate[] = [];
  const recordsOf = new Map<string, Set<string>>();
  const quarantines: Array<Promise<void>> = [];
  const keep = (record: QueuedMessage, why: unknown): Promise<void> => {
    if (late()) {
      deferred.add(record.messageId);
      return Promise.resolve();
    }
    return quarantine(deps, record, why, now).then(
      () => {
        counts.quarantined++;
      },
      (writeErr: unknown) => {
        if (retry([record.messageId]) === "deferred") return;
        counts.failed++;
        deps.log?.warn("quarantine write failed; the record will be retried", {
          messageId: record.messageId,
          error: String(writeErr),
        });
      },
    );
  };

  for (const record of messages) {
    let decoded: ReturnType<typeof decodeMessage>;
    try {
      if (record.problem) throw new MetaserverParseError("MS_RECORD", record.problem);
      decoded = decodeMessage(record.body);
      refuseFutureTime(decoded.timestamp, receivedAt(record, now), MAX_FUTURE_SKEW_MS);
    } catch (err) {
      quarantines.push(keep(record, err));
      continue;
    }
    for (const app of decoded.applications) {
      updates.push(toUpdate(decoded, app));
      const set = recordsOf.get(app.id) ?? new Set<string>();
      set.add(record.messageId);
      recordsOf.set(app.id, set);
    }
  }

  const folded = coalesce(updates);
  counts.duplicate += folded.duplicates;
  counts.stale += folded.stale;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < folded.updates.length && !late()) {
      const update = folded.updates[next++] as StatusUpdate;
      const ids = recordsOf.get(update.id) ?? new Set<string>();
      try {
        counts[await deps.store.apply(update, now, { signal })]++;
      } catch (err) {
        if (deps.store.isFinal(err)) {
          // The store says retrying cannot help (an item or key over its limits): keep the records with its reason.
          for (const id of ids) await keep(byId.get(id) as QueuedMessage, err);
          continue;
        }
        if (retry(ids) === "deferred") continue;
        counts.failed++;
        deps.log?.warn("status write failed; its records will be retried", {
          applicationId: update.id,
          error: String(err),
        });
      }
    }
  };
  await Promise.all([
    ...quarantines,
    ...Array.from({ length: Math.min(deps.writeConcurrency ?? 8, folded.updates.length) }, worker),
  ]);
  // Writes the deadline stopped before they started.
  for (const update of folded.updates.slice(next))
    for (const id of recordsOf.get(update.id) ?? []) deferred.add(id);
  counts.deferred = [...deferred].filter((id) => !failed.has(id)).length;
  if (counts.deferred > 0)
    deps.log?.warn("deadline reached: records handed back unwritten", { deferred: counts.deferred });
  return {
    failedMessageIds: messages.map((m) => m.messageId).filter((id) => failed.has(id) || deferred.has(id)),
    counts,
  };
}

/**
 * When SQS received the record, never after the handler's clock: `SentTimestamp` is SQS's, but a
 * console test event can carry any, and a message cannot have been received after it is read.
 */
function receivedAt(record: QueuedMessage, now: Date): number {
  return Math.min(record.sentAt ?? now.getTime(), now.getTime());
}

async function quarantine(deps: IngestDeps, record: QueuedMessage, why: unknown, now: Date): Promise<void> {
  const signal = deps.deadline;
  const { excerpt, bytes, truncated } = quarantineExcerpt(record.body, deps.bodyCapBytes);
  // A parse error, the store's refusal for good, or an unexpected exception (a bug of ours; the body is still kept).
  const { code, reason } =
    why instanceof FleetAuditorError
      ? { code: why.code, reason: why.message }
      : { code: "MS_UNEXPECTED", reason: `unexpected decoding error: ${String(why)}` };
  await deps.store.quarantine(
    {
      sqsMessageId: record.messageId,
      reason,
      code,
      body: excerpt,
      bodyBytes: bytes,
      truncated,
      receivedAt: now.toISOString(),
    },
    { signal },
  );
  deps.log?.warn("message quarantined", { messageId: record.messageId, reason: code });
}

/** A stable message id for a line of a file (the CLI's stand-in for SQS message ids). */
export function lineMessageId(lineNumber: number, body: string): string {
  return `line-${lineNumber}-${createHash("sha256").update(body).digest("hex").slice(0, 16)}`;
}
