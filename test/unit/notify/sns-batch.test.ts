import { PublishBatchCommand, PublishCommand, SNSClient } from "@aws-sdk/client-sns";
import type { DigestMessage } from "@fleet-auditor/audit";
import { batches, SnsAlertPublisher } from "@fleet-auditor/notify";
import { SNS_MESSAGE_LIMIT } from "@fleet-auditor/notify/sns-envelope";
import { renderDigests } from "@fleet-auditor/render";
import { mockClient } from "aws-sdk-client-mock";
import { describe, expect, it } from "vitest";
import { ctx, t } from "../../helpers/transitions.ts";

// PublishBatch's rules, which fauxqs does not enforce (it takes any aggregate size): at most 10
// entries and 256 KiB a call. The SDK is mocked only to inject per-entry failures.

const TOPIC = "arn:aws:sns:us-east-1:123456789012:alerts";
const small = (n: number): DigestMessage[] =>
  Array.from({ length: n }, (_, i) => renderDigests(ctx, [t(i)])[0] as DigestMessage);
const sized = (bytes: number): DigestMessage => ({
  ...(small(1)[0] as DigestMessage),
  message: JSON.stringify({ default: "x".repeat(bytes) }),
});

describe("SNS PublishBatch", () => {
  it("groups at most 10 entries and 256 KiB a call", () => {
    expect(batches(small(23)).map((b) => b.length)).toEqual([10, 10, 3]);
    const big = [sized(100_000), sized(100_000), sized(100_000), sized(10)];
    const chunks = batches(big);
    expect(chunks).toEqual([
      [0, 1],
      [2, 3],
    ]);
    expect(batches([sized(SNS_MESSAGE_LIMIT - 1_000), sized(2_000)])).toEqual([[0], [1]]);
  });

  it("sends again the entries SNS failed on its side, not those refused for the sender's fault", async () => {
    const client = new SNSClient({
      region: "us-east-1",
      credentials: { accessKeyId: "x", secretAccessKey: "x" },
    });
    const mock = mockClient(client);
    const calls: string[][] = [];
    mock.on(PublishBatchCommand).callsFake((input: { PublishBatchRequestEntries: Array<{ Id: string }> }) => {
      const ids = input.PublishBatchRequestEntries.map((e) => e.Id);
      calls.push(ids);
      const first = calls.length === 1;
      return {
        Successful: ids
          .filter((id) => !first || (id !== "m1" && id !== "m2"))
          .map((Id) => ({ Id, MessageId: `mid-${Id}` })),
        Failed: first
          ? [
              { Id: "m1", Code: "InternalError", Message: "try again", SenderFault: false },
              {
                Id: "m2",
                Code: "InvalidParameter",
                Message: "Invalid parameter: Subject",
                SenderFault: true,
              },
            ]
          : [],
      };
    });
    const outcomes = await new SnsAlertPublisher({ client, topicArn: TOPIC }).publishBatch(small(4));
    mock.restore();
    expect(calls).toEqual([["m0", "m1", "m2", "m3"], ["m1"]]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, true, false, true]);
    expect(outcomes[2]).toEqual({
      ok: false,
      error: `SNS refused the message for ${TOPIC}: InvalidParameter Invalid parameter: Subject`,
    });
  });

  it("publishes the short form of an entry SNS refused as too long, and says it was shortened", async () => {
    const client = new SNSClient({
      region: "us-east-1",
      credentials: { accessKeyId: "x", secretAccessKey: "x" },
    });
    const mock = mockClient(client);
    mock
      .on(PublishBatchCommand)
      .callsFake((input: { PublishBatchRequestEntries: Array<{ Id: string }> }) => ({
        Successful: input.PublishBatchRequestEntries.filter((e) => e.Id !== "m1").map(({ Id }) => ({
          Id,
          MessageId: `mid-${Id}`,
        })),
        Failed: [
          {
            Id: "m1",
            Code: "InvalidParameter",
            Message: "Invalid parameter: Message too long",
            SenderFault: true,
          },
        ],
      }));
    const singles: string[] = [];
    mock.on(PublishCommand).callsFake((input: { Subject: string }) => {
      singles.push(input.Subject);
      return { MessageId: "mid-short" };
    });
    const messages = small(3);
    const outcomes = await new SnsAlertPublisher({ client, topicArn: TOPIC }).publishBatch(messages);
    mock.restore();
    expect(singles).toEqual([messages[1]?.short?.subject]);
    expect(outcomes).toEqual([
      { ok: true, messageId: "mid-m0" },
      { ok: true, messageId: "mid-short", shortened: true },
      { ok: true, messageId: "mid-m2" },
    ]);
  });
});
