import { randomUUID } from "node:crypto";
import { appendFile, mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { type AlertPublisher, type DigestMessage, type MessageTopic, topicsOf } from "@fleet-auditor/audit";

/** One line of the outbox: what would have been published to SNS. */
export interface OutboxLine {
  subject: string;
  message: string;
  attributes: DigestMessage["attributes"];
  /** The topics it would go to (`topicsOf`): alerts, incidents, critical. */
  topics: readonly MessageTopic[];
}

/**
 * Appends each message as a JSON line to a file instead of publishing it (no AWS needed): one
 * outbox for every topic, each line naming the topics it would go to.
 */
export class OutboxPublisher implements AlertPublisher {
  readonly #path: string;
  constructor(path: string) {
    this.#path = path;
  }
  async publish(message: DigestMessage): Promise<{ messageId: string }> {
    const line: OutboxLine = {
      subject: message.subject,
      message: message.message,
      attributes: message.attributes,
      topics: topicsOf(message),
    };
    await mkdir(dirname(this.#path), { recursive: true });
    await appendFile(this.#path, `${JSON.stringify(line)}\n`);
    return { messageId: randomUUID() };
  }
}
