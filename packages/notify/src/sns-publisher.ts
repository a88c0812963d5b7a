import {
  PublishBatchCommand,
  type PublishBatchRequestEntry,
  PublishCommand,
  type PublishInput,
  type SNSClient,
} from "@aws-sdk/client-sns";
import type {
  AlertPublisher,
  DigestMessage,
  Published,
  PublishOutcome,
  ShortDigest,
} from "@fleet-auditor/audit";
import { backoffMs } from "@fleet-auditor/backoff";
import { PublishError } from "./errors.ts";
import { byteSize, SNS_BYTE_BUDGET, snsAttributes } from "./sns-envelope.ts";
import { refusedAsTooLong } from "./too-long.ts";

/**
 * Publishes digests to one SNS topic with `MessageStructure=json` (`default`: the structured
 * digest for Lambda, SQS and other programs; `email`: plain text; `https`: AWS Chatbot) and the
 * attributes `audit`, `severity` (String) and `kinds` (String.Array), so that subscriptions can
 * filter. A message SNS refuses as too long ("Invalid parameter: Message too long") is sent in
 * its `short` form instead, and the outcome says `shortened`: a run never fails to publish every
 * time for its size, whatever SNS counts that `byteSize` does not.
 */
export class SnsAlertPublisher implements AlertPublisher {
  readonly #client: SNSClient;
  readonly #topicArn: string;
  constructor(options: { client: SNSClient; topicArn: string }) {
    this.#client = options.client;
    this.#topicArn = options.topicArn;
  }

  async publish(message: DigestMessage): Promise<Published> {
    try {
      return { messageId: await this.#send(message) };
    } catch (err) {
      if (!(message.short && refusedAsTooLong(err))) throw this.#failure(err);
      return this.#publishShort(message.short, err);
    }
  }

  /**
   * PublishBatch: at most 10 entries and 256 KiB a call, counted as `byteSize` counts (SNS's
   * limits; fauxqs checks neither). Entries SNS failed for its own reasons are sent again, twice
   * at most; an entry refused for the sender's fault is not, except one refused as too long,
   * whose short form is published instead; a call refused as too long as a whole is made again
   * one message at a time.
   */
  async publishBatch(messages: readonly DigestMessage[]): Promise<PublishOutcome[]> {
    const outcomes: PublishOutcome[] = messages.map(() => ({ ok: false, error: "not sent" }));
    // Refused as too long: a whole call (each message is sent alone), or one entry (its short form is).
    const alone: number[] = [];
    const tooLong = new Map<number, Error>();
    for (const chunk of batches(messages)) {
      let pending = chunk;
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > 0) {
          const wait = backoffMs(attempt, { baseMs: BATCH_RETRY_BASE_MS, jitter: "none" });
          await new Promise((r) => setTimeout(r, wait));
        }
        const again: number[] = [];
        try {
          const out = await this.#client.send(
            new PublishBatchCommand({
              TopicArn: this.#topicArn,
              PublishBatchRequestEntries: pending.map(
                (i): PublishBatchRequestEntry => ({ Id: `m${i}`, ...snsEntry(messages[i] as DigestMessage) }),
              ),
            }),
          );
          for (const ok of out.Successful ?? []) {
            outcomes[Number(ok.Id?.slice(1))] = { ok: true, messageId: ok.MessageId ?? "" };
          }
          for (const failed of out.Failed ?? []) {
            const i = Number(failed.Id?.slice(1));
            outcomes[i] = {
              ok: false,
              error:
                `SNS refused the message for ${this.#topicArn}: ${failed.Code ?? "?"} ${failed.Message ?? ""}`.trim(),
            };
            const refusal = Object.assign(new Error(failed.Message ?? ""), { name: failed.Code ?? "" });
            if (refusedAsTooLong(refusal) && messages[i]?.short) tooLong.set(i, refusal);
            else if (!failed.SenderFault && attempt < BATCH_RETRIES) again.push(i);
          }
        } catch (err) {
          if (refusedAsTooLong(err)) {
            alone.push(...pending);
          } else {
            for (const i of pending) outcomes[i] = { ok: false, error: this.#failure(err).message };
          }
        }
        pending = again;
      }
    }
    const resend = [
      ...alone.map((i) => [i, () => this.publish(messages[i] as DigestMessage)] as const),
      ...[...tooLong].map(
        ([i, refusal]) => [i, () => this.#publishShort(messages[i]?.short as ShortDigest, refusal)] as const,
      ),
    ];
    for (const [i, send] of resend) {
      try {
        outcomes[i] = { ok: true, ...(await send()) };
      } catch (err) {
        outcomes[i] = { ok: false, error: (err as Error).message };
      }
    }
    return outcomes;
  }

  async #send(message: ShortDigest): Promise<string> {
    const out = await this.#client.send(
      new PublishCommand({ TopicArn: this.#topicArn, ...snsEntry(message) }),
    );
    return out.MessageId ?? "";
  }

  async #publishShort(short: ShortDigest, refusal: unknown): Promise<Published> {
    try {
      return { messageId: await this.#send(short), shortened: true };
    } catch (err) {
      throw new PublishError(
        `SNS refused the digest for ${this.#topicArn} as too long (${(refusal as Error).message}), and its short form: ${(err as Error).message}`,
        { cause: err },
      );
    }
  }

  #failure(err: unknown): PublishError {
    return new PublishError(`SNS publish to ${this.#topicArn} failed: ${(err as Error).message}`, {
      cause: err,
    });
  }
}

const BATCH_ENTRIES = 10;
const BATCH_RETRIES = 2;
const BATCH_RETRY_BASE_MS = 200;

/** Indexes of `messages` in PublishBatch calls: at most 10 entries and `SNS_BYTE_BUDGET` each. */
export function batches(messages: readonly DigestMessage[]): number[][] {
  const out: number[][] = [];
  let current: number[] = [];
  let bytes = 0;
  for (const [i, m] of messages.entries()) {
    const size = byteSize(m);
    if (current.length === BATCH_ENTRIES || (current.length > 0 && bytes + size > SNS_BYTE_BUDGET)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(i);
    bytes += size;
  }
  if (current.length) out.push(current);
  return out;
}

/**
 * A message as SNS takes it: JSON-structured, with the attributes subscriptions filter on
 * (`snsAttributes`, the same that `byteSize` counts).
 */
export function snsEntry(message: ShortDigest): Omit<PublishInput, "TopicArn"> {
  return {
    Subject: message.subject,
    Message: message.message,
    MessageStructure: "json",
    MessageAttributes: snsAttributes(message.attributes),
  };
}
