import { createHash } from "node:crypto";
import { parseInput, type QueuedMessage } from "@fleet-auditor/use-cases";
import { array, looseObject, optional, unknown } from "zod";

// The Lambda side of the queue function: the use cases' ingestBatch takes queued messages and
// knows nothing of SQS's event or of partial batch responses.

/** What an SQS event must be at least: records, each read for its id, body and sent time. */
const SqsEventSchema = looseObject({
  Records: array(
    looseObject({
      messageId: optional(unknown()),
      body: optional(unknown()),
      attributes: optional(unknown()),
    }),
  ),
});

/** `SentTimestamp` as SQS writes it: epoch milliseconds in decimal digits, as a string. */
const SENT_TIMESTAMP = /^\d{1,16}$/;

/**
 * The records of an SQS event as queued messages. An event that is not one throws
 * `RunInputError` (there is nothing to keep). A record whose body is not a string is kept for the
 * quarantine with its problem; a record without `messageId` is named after its body
 * (`no-message-id-<sha256>`), never `undefined` or empty, so that no two share a quarantine item.
 * The record's `attributes.SentTimestamp` (when SQS received it) becomes `sentAt`; a value that is
 * not SQS's decimal string is left out rather than guessed at.
 */
export function queuedMessages(event: unknown): QueuedMessage[] {
  const { Records } = parseInput(SqsEventSchema, event);
  return Records.map((r) => {
    const text = typeof r.body === "string";
    const body = text ? (r.body as string) : (JSON.stringify(r.body ?? null) ?? "");
    const named = typeof r.messageId === "string" && r.messageId !== "";
    const message: QueuedMessage = {
      messageId: named
        ? (r.messageId as string)
        : `no-message-id-${createHash("sha256").update(body).digest("hex").slice(0, 16)}`,
      body,
    };
    const sent = (r.attributes as { SentTimestamp?: unknown } | undefined)?.SentTimestamp;
    if (typeof sent === "string" && SENT_TIMESTAMP.test(sent)) message.sentAt = Number(sent);
    if (!named) message.unnamed = true;
    if (!text) message.problem = `the SQS record has no string body (got ${kindOf(r.body)})`;
    return message;
  });
}

/**
 * The partial batch response for the records to retry. Lambda can only be told about records by
 * their `messageId`: one without it that must be retried fails the whole batch instead.
 */
export function batchItemFailures(
  messages: readonly QueuedMessage[],
  failedMessageIds: readonly string[],
): Array<{ itemIdentifier: string }> {
  const failed = new Set(failedMessageIds);
  if (messages.some((m) => m.unnamed && failed.has(m.messageId))) {
    throw new Error("a record without messageId could not be written; the whole batch is retried");
  }
  return failedMessageIds.map((itemIdentifier) => ({ itemIdentifier }));
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}
