import { randomUUID } from "node:crypto";
import type { SNSEvent } from "aws-lambda";

/**
 * An SNS event as Lambda receives it from a subscription. With `MessageStructure=json`, `Message`
 * is the publish's `lambda` key, or its `default` when there is none (as in this product's).
 */
export function snsEvent(messages: readonly string[], topic = "fleet-auditor-alerts"): SNSEvent {
  const topicArn = `arn:aws:sns:us-east-1:123456789012:${topic}`;
  return {
    Records: messages.map((Message) => ({
      EventSource: "aws:sns",
      EventVersion: "1.0",
      EventSubscriptionArn: `${topicArn}:${randomUUID()}`,
      Sns: {
        Type: "Notification",
        MessageId: randomUUID(),
        TopicArn: topicArn,
        Subject: "",
        Message,
        Timestamp: new Date().toISOString(),
        SignatureVersion: "1",
        Signature: "EXAMPLE",
        SigningCertUrl: "https://sns.us-east-1.amazonaws.com/cert.pem",
        UnsubscribeUrl: "https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe",
        MessageAttributes: {},
      },
    })),
  };
}

/** What SNS would deliver to a Lambda subscriber of this publish body: its `lambda` key, else `default`. */
export function forLambda(publishBody: string): string {
  const doc = JSON.parse(publishBody) as { lambda?: string; default: string };
  return doc.lambda ?? doc.default;
}
