import { RunInputError } from "@fleet-auditor/use-cases";
import { describe, expect, it } from "vitest";
import { snsMessages } from "../../../functions/lib/sns-event.ts";
import { snsEvent } from "../../helpers/sns-event.ts";

describe("SNS events at the edges", () => {
  it("hands over each record's message and SNS's ID for it, in order", () => {
    const event = snsEvent(["first", '{"schema":"x"}']);
    expect(snsMessages(event)).toEqual(
      event.Records.map((r) => ({ id: r.Sns.MessageId, text: r.Sns.Message })),
    );
  });

  it("refuses an event that is not one, naming the field", () => {
    expect(() => snsMessages({ Records: [] })).toThrow(RunInputError);
    expect(() => snsMessages({ Records: [{ Sns: { MessageId: "m1" } }] })).toThrow(
      /Records\.0\.Sns\.Message/,
    );
  });
});
