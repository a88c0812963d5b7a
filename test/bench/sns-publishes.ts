import type { PublishBatchRequestEntry, PublishInput, SNSClient } from "@aws-sdk/client-sns";

const CHUNK = 64 * 1024;

/** What a client published: requests as SNS bills them (a 64 KB chunk each), by topic. */
export interface PublishTally {
  /** Publish and PublishBatch calls. */
  calls: number;
  /** Messages published (a batch's entries each). */
  messages: number;
  /** Billed requests: each call's payload in 64 KB chunks. */
  chunks: number;
  bytes: number;
  /** Messages by topic name (the ARN's last part). */
  byTopic: Record<string, number>;
  /** One message body per topic, as published: what a subscriber function would receive. */
  samples: Record<string, string>;
}

const utf8 = (s: string | undefined): number => (s ? Buffer.byteLength(s) : 0);

/** A publish's payload as SNS counts it: body, subject, and each attribute's name, type and value. */
function payloadBytes(p: Pick<PublishInput, "Message" | "Subject" | "MessageAttributes">): number {
  let n = utf8(p.Message) + utf8(p.Subject);
  for (const [name, a] of Object.entries(p.MessageAttributes ?? {}))
    n += utf8(name) + utf8(a.DataType) + utf8(a.StringValue) + (a.BinaryValue?.length ?? 0);
  return n;
}

/**
 * Counts what an SNS client publishes through the real adapter, from now on: an SDK middleware
 * reads each Publish and PublishBatch input. SNS bills a publish per 64 KB chunk of its payload,
 * and a PublishBatch by the chunks of its entries together.
 */
export class SnsPublishes {
  tally: PublishTally = SnsPublishes.#empty();

  constructor(client: SNSClient) {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as PublishInput & {
          PublishBatchRequestEntries?: PublishBatchRequestEntry[];
        };
        const entries =
          context.commandName === "PublishBatchCommand"
            ? (input.PublishBatchRequestEntries ?? [])
            : context.commandName === "PublishCommand"
              ? [input]
              : [];
        if (entries.length) this.#count(input.TopicArn ?? "?", entries);
        return next(args);
      },
      { step: "initialize", name: "snsPublishes" },
    );
  }

  clear(): void {
    this.tally = SnsPublishes.#empty();
  }

  #count(
    topicArn: string,
    entries: Array<Pick<PublishInput, "Message" | "Subject" | "MessageAttributes">>,
  ): void {
    const t = this.tally;
    const topic = topicArn.split(":").pop() as string;
    const bytes = entries.reduce((n, e) => n + payloadBytes(e), 0);
    t.calls++;
    t.messages += entries.length;
    t.bytes += bytes;
    t.chunks += Math.max(1, Math.ceil(bytes / CHUNK));
    t.byTopic[topic] = (t.byTopic[topic] ?? 0) + entries.length;
    t.samples[topic] ??= entries[0]?.Message ?? "";
  }

  static #empty(): PublishTally {
    return { calls: 0, messages: 0, chunks: 0, bytes: 0, byTopic: {}, samples: {} };
  }
}
