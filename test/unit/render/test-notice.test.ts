import { readFileSync } from "node:fs";
import { MESSAGE_TOPICS, type MessageTopic } from "@fleet-auditor/audit";
import { byteSize, SNS_BYTE_BUDGET } from "@fleet-auditor/notify";
import {
  CHATBOT_DESCRIPTION_LIMIT,
  type ChatbotNotification,
  TEST_CHANNELS,
  TEST_V1,
  TestV1Schema,
  testNotice,
} from "@fleet-auditor/render";
import { pagerEventFor, slackMessageFor } from "@fleet-auditor/use-cases";
import { describe, expect, it } from "vitest";
import { testV1JsonSchema } from "../../../tools/digest-schema-json.ts";
import { refusal as slackRefusal } from "../../helpers/fake-slack.ts";
import { schemaValidator } from "../../helpers/json-schema.ts";

// The `notify test` message of each topic, in every variant a subscriber can get: marked TEST,
// saying that nothing is wrong, and valid for the channel that reads it.

const COMMITTED = new URL("../../../schemas/fleet-auditor.test.v1.schema.json", import.meta.url);
const ctx = {
  testId: "test-0001",
  at: "2026-11-30T06:00:00.000Z",
  sender: "alice",
  landscape: "prod-eu",
};

type Bodies = { default: string; email: string; https: string };
const bodies = (m: ReturnType<typeof testNotice>): Bodies => JSON.parse(m.message) as Bodies;
const notice = (topic: MessageTopic, over: Partial<typeof ctx> = {}) =>
  testNotice({ ...ctx, ...over, topic });

describe("a test notice", () => {
  it.each(MESSAGE_TOPICS)(
    "for %s goes to that topic alone, marked TEST in its subject and attributes",
    (topic) => {
      const m = notice(topic);
      expect(m.topics).toEqual([topic]);
      expect(m.subject).toBe(
        `[fleet-auditor] [TEST] [prod-eu] ${topic} topic: test message, nothing is wrong`,
      );
      expect(m.attributes).toEqual({
        audit: "notify-test",
        severity: "info",
        kinds: ["test"],
        format: "test",
      });
      // It tells no transition: nothing counts as told by it.
      expect([m.transitions, m.omitted]).toEqual([[], []]);
      expect(byteSize(m)).toBeLessThan(SNS_BYTE_BUDGET);
    },
  );

  it.each(MESSAGE_TOPICS)(
    "for %s says in its e-mail that it is a test, by whom, when, and where it should show",
    (topic) => {
      const lines = bodies(notice(topic)).email.split("\n");
      expect(lines[0]).toBe(`TEST of the fleet-auditor [prod-eu] ${topic} topic: nothing is wrong.`);
      expect(lines[1]).toContain("Sent by notify test (alice, 2026-11-30 06:00 UTC)");
      expect(lines[2]).toContain(`It should show in ${TEST_CHANNELS[topic]}.`);
      expect(lines.at(-1)).toBe("Test test-0001.");
    },
  );

  it.each(MESSAGE_TOPICS)("for %s is a Chatbot custom notification of its own thread", (topic) => {
    const chatbot = JSON.parse(bodies(notice(topic)).https) as ChatbotNotification;
    expect(chatbot).toMatchObject({
      version: "1.0",
      source: "custom",
      id: `test-0001:${topic}`,
      content: {
        textType: "client-markdown",
        title: `:test_tube: [TEST] [prod-eu] ${topic} topic: nothing is wrong`,
      },
      metadata: { threadId: "fleet-auditor:prod-eu:test:test-0001", eventType: "fleet-auditor.test" },
    });
    expect(chatbot.content.description).toContain("topic: nothing is wrong.");
    expect(chatbot.content.description.length).toBeLessThanOrEqual(CHATBOT_DESCRIPTION_LIMIT);
    expect(Object.keys(chatbot.metadata.additionalContext).length).toBeGreaterThan(0);
    expect(Object.values(chatbot.metadata.additionalContext).every((v) => typeof v === "string")).toBe(true);
  });

  it.each(MESSAGE_TOPICS)(
    "for %s has a structured default its zod schema and JSON Schema both take",
    (topic) => {
      const doc = JSON.parse(bodies(notice(topic)).default);
      expect(TestV1Schema.parse(doc)).toMatchObject({
        schema: TEST_V1,
        landscape: "prod-eu",
        testId: "test-0001",
        topic,
        sender: "alice",
        channels: TEST_CHANNELS[topic],
        key: expect.stringMatching(/^tst-[\w-]{24}$/),
      });
      const validate = schemaValidator(testV1JsonSchema());
      expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
      expect(validate({ ...doc, topic: "ops" })).toBe(false);
    },
  );

  it("has a committed JSON Schema that matches the zod schema", () => {
    expect(JSON.parse(readFileSync(COMMITTED, "utf8"))).toEqual(testV1JsonSchema());
  });

  it("has a key of its own for each test and topic, so a pager never adds it to another alert", () => {
    const key = (topic: MessageTopic, testId = ctx.testId) =>
      TestV1Schema.parse(JSON.parse(bodies(notice(topic, { testId })).default)).key;
    expect(key("critical")).toBe(key("critical"));
    expect(new Set([key("critical"), key("alerts"), key("critical", "test-0002")]).size).toBe(3);
  });

  it("keeps a hostile sender on one line, and inert in chat", () => {
    const m = notice("incidents", { sender: "<!channel> *boss*\nSubject: fired", landscape: undefined });
    expect(m.subject).toBe("[fleet-auditor] [TEST] incidents topic: test message, nothing is wrong");
    const { email, https } = bodies(m);
    expect(email.split("\n")[1]).toContain("(<!channel> *boss* Subject: fired,");
    expect(email).not.toMatch(/^Subject:/m);
    expect(https).not.toContain("<!channel>");
    expect(https).toContain("&lt;!channel&gt; ∗boss∗");
    const slack = slackMessageFor(bodies(m).default).message;
    expect(JSON.stringify(slack)).not.toContain("<!channel>");
  });
});

describe("a test notice delivered", () => {
  it("is posted to Slack as a marked message of its own", () => {
    const posted = slackMessageFor(bodies(notice("incidents")).default);
    expect(posted.incident).toBeUndefined();
    expect(slackRefusal(posted.message)).toBeUndefined();
    expect(posted.message.text).toBe("[TEST] [prod-eu] incidents topic: nothing is wrong");
    expect(posted.message.blocks[0]).toMatchObject({
      type: "header",
      text: { text: ":test_tube: [TEST] [prod-eu] incidents topic: nothing is wrong" },
    });
    expect(JSON.stringify(posted.message)).toContain("This is a test message; nothing is wrong.");
  });

  it("pages PagerDuty with an info trigger marked [TEST], followed at once by its resolve", () => {
    const doc = bodies(notice("critical")).default;
    const { key } = TestV1Schema.parse(JSON.parse(doc));
    const mapped = pagerEventFor(doc);
    expect(mapped).toMatchObject({ about: "test", testId: "test-0001" });
    expect(mapped.event).toMatchObject({
      event_action: "trigger",
      dedup_key: key,
      payload: {
        summary: expect.stringMatching(
          /^\[TEST\] \[prod-eu\] fleet-auditor critical topic: a test, nothing is wrong/,
        ),
        severity: "info",
        source: "prod-eu",
        class: "test",
        timestamp: ctx.at,
        custom_details: { testId: "test-0001", sender: "alice", topic: "critical" },
      },
    });
    expect(mapped.followedBy).toEqual({ event_action: "resolve", dedup_key: key });
  });

  it("is refused by name when it says it is a test notice but its schema refuses it", () => {
    const broken = JSON.stringify({ ...JSON.parse(bodies(notice("critical")).default), at: "yesterday" });
    expect(() => slackMessageFor(broken)).toThrow(
      /fleet-auditor.test\/v1 that its schema refuses.*Message.at/,
    );
    expect(() => pagerEventFor(broken)).toThrow(/fleet-auditor.test\/v1 that its schema refuses/);
  });
});
