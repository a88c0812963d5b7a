import { createHash, randomUUID } from "node:crypto";
import type { SQSEvent, SQSRecord } from "aws-lambda";

/** An SQS event exactly as Lambda delivers it to a function with an SQS event source. */
export function sqsEvent(bodies: readonly string[], queue = "fleet-auditor-applications"): SQSEvent {
  return {
    Records: bodies.map(
      (body): SQSRecord => ({
        messageId: randomUUID(),
        receiptHandle: `AQEB${Buffer.from(randomUUID()).toString("base64")}`,
        body,
        attributes: {
          ApproximateReceiveCount: "1",
          SentTimestamp: String(Date.now()),
          SenderId: "AIDAIENQZJOLO23YVJ4VO",
          ApproximateFirstReceiveTimestamp: String(Date.now()),
        },
        messageAttributes: {},
        md5OfBody: createHash("md5").update(body).digest("hex"),
        eventSource: "aws:sqs",
        eventSourceARN: `arn:aws:sqs:us-east-1:123456789012:${queue}`,
        awsRegion: "us-east-1",
      }),
    ),
  };
}
