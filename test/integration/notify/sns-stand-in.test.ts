import { type MessageAttributeValue, PublishBatchCommand, PublishCommand } from "@aws-sdk/client-sns";
import { describe, expect, it } from "vitest";
import { type Delivered, useSns } from "../../helpers/sns.ts";

// The harness holds every publish of the tests to real SNS's rules, which fauxqs does not apply:
// size counted AWS's way, the subject's rules, the attributes' types. What it refuses, it
// refuses as SNS does (the SDK sees SNS's error); what it takes, fauxqs delivers.

const sns = useSns();
const attributes = (kinds: string): Record<string, MessageAttributeValue> => ({
  audit: { DataType: "String", StringValue: "failing" },
  kinds: { DataType: "String.Array", StringValue: kinds },
});
const publish = (input: Partial<ConstructorParameters<typeof PublishCommand>[0]>) =>
  sns.sns.send(new PublishCommand({ TopicArn: sns.topicArn, Message: "m", ...input })).catch((e: Error) => e);

describe("the SNS stand-in before fauxqs", () => {
  it("refuses a publish over 256 KiB counted with its subject and attributes, as SNS does", async () => {
    const drain = await sns.subscriber("stand-in-size");
    const room = 262_144 - "audit".length - "String".length - "failing".length - "kinds".length;
    const fits = room - "String.Array".length - '["firing"]'.length - "s".length;
    const at = await publish({
      Message: "x".repeat(fits),
      Subject: "s",
      MessageAttributes: attributes('["firing"]'),
    });
    expect(at).toHaveProperty("MessageId");
    const over = await publish({
      Message: "x".repeat(fits + 1),
      Subject: "s",
      MessageAttributes: attributes('["firing"]'),
    });
    expect(over).toMatchObject({
      name: "InvalidParameterException",
      message: "Invalid parameter: Message too long",
    });
    expect(sns.standIn.refused.splice(0).map((r) => r.code)).toEqual(["InvalidParameter"]);
    expect(await drain()).toHaveLength(1);
  });

  it("refuses subjects SNS refuses: empty, 100 characters or more, a line break, not ASCII", async () => {
    for (const subject of ["", "s".repeat(100), "a\nb", "café", " leading space"]) {
      expect(await publish({ Subject: subject })).toMatchObject({ message: "Invalid parameter: Subject" });
    }
    expect(await publish({ Subject: "s".repeat(99) })).toHaveProperty("MessageId");
    expect(sns.standIn.refused.splice(0)).toHaveLength(5);
  });

  it("refuses attribute types and values SNS refuses, and a JSON structure without a default", async () => {
    const bad: Array<Record<string, MessageAttributeValue>> = [
      { kinds: { DataType: "Strng", StringValue: "x" } },
      { kinds: { DataType: "String", StringValue: "" } },
      { kinds: { DataType: "String.Array", StringValue: "not json" } },
      { kinds: { DataType: "Number", StringValue: "twelve" } },
      { "AWS.kinds": { DataType: "String", StringValue: "x" } },
    ];
    for (const MessageAttributes of bad) {
      expect(await publish({ MessageAttributes })).toMatchObject({ name: "InvalidParameterValue" });
    }
    expect(await publish({ MessageStructure: "json", Message: '{"email":"x"}' })).toMatchObject({
      message: "Invalid parameter: Message Structure - No default entry in JSON message body",
    });
    expect(sns.standIn.refused.splice(0)).toHaveLength(6);
  });

  it("fails a batch entry SNS would refuse in Failed and delivers the others; refuses a batch as SNS does", async () => {
    const drain: () => Promise<Delivered[]> = await sns.subscriber("stand-in-batch");
    const out = await sns.sns.send(
      new PublishBatchCommand({
        TopicArn: sns.topicArn,
        PublishBatchRequestEntries: [
          { Id: "a", Message: "one", Subject: "first" },
          { Id: "b", Message: "two", Subject: "bad\nsubject" },
          { Id: "c", Message: "three", Subject: "third" },
        ],
      }),
    );
    expect(out.Successful?.map((s) => s.Id).sort()).toEqual(["a", "c"]);
    expect(out.Failed).toEqual([
      { Id: "b", Code: "InvalidParameter", Message: "Invalid parameter: Subject", SenderFault: true },
    ]);
    expect((await drain()).map((d) => d.Subject).sort()).toEqual(["first", "third"]);

    const eleven = Array.from({ length: 11 }, (_, i) => ({ Id: `m${i}`, Message: "x" }));
    const tooMany = await sns.sns
      .send(new PublishBatchCommand({ TopicArn: sns.topicArn, PublishBatchRequestEntries: eleven }))
      .catch((e: Error) => e);
    expect(tooMany).toMatchObject({ name: "TooManyEntriesInBatchRequestException" });
    const big = [0, 1].map((i) => ({ Id: `m${i}`, Message: "x".repeat(140_000) }));
    const tooLong = await sns.sns
      .send(new PublishBatchCommand({ TopicArn: sns.topicArn, PublishBatchRequestEntries: big }))
      .catch((e: Error) => e);
    expect(tooLong).toMatchObject({ name: "BatchRequestTooLongException" });
    expect(sns.standIn.refused.splice(0).map((r) => r.code)).toEqual([
      "InvalidParameter",
      "TooManyEntriesInBatchRequest",
      "BatchRequestTooLong",
    ]);
  });
});
