import { randomUUID } from "node:crypto";
import { appendFile, mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import type { AlertPublisher, DigestMessage } from "@fleet-auditor/audit";

/** One line of the outbox: what would have been published to SNS. */
export interface OutboxLine {
  subject: string;
  message: string;
  attributes: DigestMessage["attributes"];
}

/** Appends each message as a JSON line to a file instead of publishing it (no AWS needed). */
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
    };
    await mkdir(dirname(this.#path), { recursive: true });
    await appendFile(this.#path, `${JSON.stringify(line)}\n`);
    return { messageId: randomUUID() };
  }
}
