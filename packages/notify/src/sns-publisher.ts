import {
  PublishBatchCommand,
  type PublishBatchRequestEntry,
  PublishCommand,
  type SNSClient,
} from "@aws-sdk/client-sns";
import {
  type AlertPublisher,
  byteSize,
  type DigestMessage,
  type PublishOutcome,
  SNS_MESSAGE_LIMIT,
} from "@fleet-auditor/audit";
import { PublishError } from "./errors.ts";

/**
 * Publishes digests to one SNS topic with `MessageStructure=json` (`default`: the structured
 * digest for Lambda, SQS and other programs; `email`: plain text; `https`: AWS Chatbot) and the
 * attributes `audit`, `severity` (String) and `kinds` (String.Array), so that subscriptions can
 * filter.
 */
export class SnsAlertPublisher implements AlertPublisher {
  readonly #client: SNSClient;
  readonly #topicArn: string;
  constructor(options: { client: SNSClient; topicArn: string }) {
    this.#client = options.client;
    this.#topicArn = options.topicArn;
  }

  async publish(message: DigestMessage): Promise<{ messageId: string }> {
    try {
      const out = await this.#client.send(
        new PublishCommand({ TopicArn: this.#topicArn, ...entryOf(message) }),
      );
      return { messageId: out.MessageId ?? "" };
    } catch (err) {
      throw new PublishError(`SNS publish to ${this.#topicArn} failed: ${(err as Error).message}`, {
        cause: err,
      });
    }
  }

  /**
   * PublishBatch: at most 10 entries and 256 KiB a call (SNS's limits; fauxqs checks neither the
   * aggregate size nor refuses past it). Entries SNS failed for its own reasons are sent again,
   * twice at most; an entry refused for the sender's fault is not.
   */
  async publishBatch(messages: readonly DigestMessage[]): Promise<PublishOutcome[]> {
    const outcomes: PublishOutcome[] = messages.map(() => ({ ok: false, error: "not sent" }));
    for (const chunk of batches(messages)) {
      let pending = chunk;
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > 0) await new Promise((r) => setTimeout(r, BATCH_RETRY_BASE_MS * 2 ** (attempt - 1)));
        const again: number[] = [];
        try {
          const out = await this.#client.send(
            new PublishBatchCommand({
              TopicArn: this.#topicArn,
              PublishBatchRequestEntries: pending.map(
                (i): PublishBatchRequestEntry => ({ Id: `m${i}`, ...entryOf(messages[i] as DigestMessage) }),
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
            if (!failed.SenderFault && attempt < BATCH_RETRIES) again.push(i);
          }
        } catch (err) {
          for (const i of pending) {
            outcomes[i] = {
              ok: false,
              error: `SNS publish to ${this.#topicArn} failed: ${(err as Error).message}`,
            };
          }
        }
        pending = again;
      }
    }
    return outcomes;
  }
}

const BATCH_ENTRIES = 10;
const BATCH_RETRIES = 2;
const BATCH_RETRY_BASE_MS = 200;

/** Indexes of `messages` in PublishBatch calls: at most 10 entries and 256 KiB each. */
export function batches(messages: readonly DigestMessage[]): number[][] {
  const out: number[][] = [];
  let current: number[] = [];
  let bytes = 0;
  for (const [i, m] of messages.entries()) {
    const size = byteSize(m);
    if (current.length === BATCH_ENTRIES || (current.length > 0 && bytes + size > SNS_MESSAGE_LIMIT)) {
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

/** A message as SNS takes it: JSON-structured, with the attributes subscriptions filter on. */
function entryOf(message: DigestMessage) {
  return {
    Subject: message.subject,
    Message: message.message,
    MessageStructure: "json",
    MessageAttributes: {
      audit: { DataType: "String", StringValue: message.attributes.audit },
      severity: { DataType: "String", StringValue: message.attributes.severity },
      kinds: { DataType: "String.Array", StringValue: JSON.stringify(message.attributes.kinds) },
    },
  };
}
