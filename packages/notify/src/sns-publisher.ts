import { PublishCommand, type SNSClient } from "@aws-sdk/client-sns";
import type { AlertPublisher, DigestMessage } from "@fleet-auditor/audit";
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
        new PublishCommand({
          TopicArn: this.#topicArn,
          Subject: message.subject,
          Message: message.message,
          MessageStructure: "json",
          MessageAttributes: {
            audit: { DataType: "String", StringValue: message.attributes.audit },
            severity: { DataType: "String", StringValue: message.attributes.severity },
            kinds: { DataType: "String.Array", StringValue: JSON.stringify(message.attributes.kinds) },
          },
        }),
      );
      return { messageId: out.MessageId ?? "" };
    } catch (err) {
      throw new PublishError(`SNS publish to ${this.#topicArn} failed: ${(err as Error).message}`, {
        cause: err,
      });
    }
  }
}
