import { describe, expect, it } from "vitest";
import { batchItemFailures, queuedMessages } from "../../../functions/lib/sqs-event.ts";

describe("SQS events at the edges", () => {
  it("keeps a record without a string body for the quarantine, with its problem", () => {
    const [m] = queuedMessages({ Records: [{ messageId: "m1", body: null }] });
    expect(m).toEqual({
      messageId: "m1",
      body: "null",
      problem: "the SQS record has no string body (got null)",
    });
  });

  it("names a record without messageId after its body, the same body the same name", () => {
    const [a, b] = queuedMessages({ Records: [{ body: "x" }, { messageId: "", body: "x" }] });
    expect(a?.messageId).toMatch(/^no-message-id-[0-9a-f]{16}$/);
    expect(b?.messageId).toBe(a?.messageId);
    expect(a?.unnamed).toBe(true);
  });

  it("keeps the time SQS received each record, and leaves out a sent time that is not one", () => {
    const at = (SentTimestamp: unknown) => ({ messageId: "m", body: "x", attributes: { SentTimestamp } });
    const messages = queuedMessages({
      Records: [
        at("1764504000000"),
        at("yesterday"),
        at(""),
        at(1764504000000),
        { messageId: "m", body: "x" },
      ],
    });
    expect(messages.map((m) => m.sentAt)).toEqual([
      1764504000000,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("fails the whole batch when a record without messageId must be retried, and never sends an empty identifier", () => {
    const messages = queuedMessages({ Records: [{ messageId: "m1", body: "a" }, { body: "b" }] });
    expect(batchItemFailures(messages, ["m1"])).toEqual([{ itemIdentifier: "m1" }]);
    expect(() => batchItemFailures(messages, [messages[1]?.messageId as string])).toThrow(
      /whole batch is retried/,
    );
  });
});
