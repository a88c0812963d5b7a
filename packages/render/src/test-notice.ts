import { createHash } from "node:crypto";
import { type DigestMessage, type MessageTopic, oneLine, shortTime, slackText } from "@fleet-auditor/audit";
import { snsMessage } from "@fleet-auditor/notify/sns-envelope";
import type { ChatbotNotification } from "./chatbot/render-chatbot.ts";
import { TEST_V1 } from "./structured/test-v1-name.ts";
import type { TestV1 } from "./structured/test-v1-schema.ts";
import { asciiSubject } from "./subject.ts";

/** One test of one route: who asked for it, when, and through which topic it goes. */
export interface TestNoticeContext {
  /** The `notify test` that sends it (one ID for every topic it chose). */
  testId: string;
  topic: MessageTopic;
  /** When it is sent (ISO). */
  at: string;
  /** Who asked, as the caller names them: `$USER` from the CLI, `console` from the console event. */
  sender: string;
  /** The landscape's name (`LANDSCAPE`): in the subject and every title. */
  landscape?: string;
}

/** Where each topic's messages show, so that whoever reads the test knows what it proves. */
export const TEST_CHANNELS: Readonly<Record<MessageTopic, string>> = {
  alerts: "e-mail: the subscriptions that get each run's digest",
  incidents: "Slack: the channels of AWS Chatbot and the Slack function",
  critical: "PagerDuty: an alert the pager function opens and resolves at once",
};

/**
 * A test notice (`format=test`, severity `info`, `kinds=["test"]`) for one topic, and only that
 * one (`topics: [topic]`): a message marked TEST in its subject and every variant, saying that
 * nothing is wrong, who sent it and when, and which channel should show it. Its `default` is
 * `fleet-auditor.test/v1` (`TestV1Schema`), which the Slack function posts as a marked message and
 * the pager turns into a trigger resolved at once, under a `key` unique to the test and topic.
 * It names no runtime, run or incident: it proves a route, not the fleet.
 */
export function testNotice(ctx: TestNoticeContext): DigestMessage {
  const where = ctx.landscape ? `[${ctx.landscape}] ` : "";
  const sender = oneLine(ctx.sender, 100);
  const channels = TEST_CHANNELS[ctx.topic];
  const title = `[TEST] ${where}${ctx.topic} topic: nothing is wrong`;
  const subject = asciiSubject(
    `[fleet-auditor] [TEST] ${where}${ctx.topic} topic: test message, nothing is wrong`,
  );
  const text: [string, ...string[]] = [
    `TEST of the fleet-auditor ${where}${ctx.topic} topic: nothing is wrong.`,
    `Sent by notify test (${sender}, ${shortTime(ctx.at)}) to check that this topic's messages arrive.`,
    `It should show in ${channels}. If it did, this route works and nothing needs doing.`,
    `Test ${ctx.testId}.`,
  ];
  const chatbot: ChatbotNotification = {
    version: "1.0",
    source: "custom",
    id: `${ctx.testId}:${ctx.topic}`,
    content: {
      textType: "client-markdown",
      title: `:test_tube: ${slackText(title, 250)}`,
      description: text.map((l) => slackText(l, 900)).join("\n"),
      nextSteps: ["Nothing to do: this is a test."],
      keywords: ["test", ctx.topic, ...(ctx.landscape ? [ctx.landscape] : [])],
    },
    metadata: {
      // A thread of its own: a test never lands in an incident's thread.
      threadId: `fleet-auditor:${ctx.landscape ?? "-"}:test:${ctx.testId}`,
      summary: slackText(title, 250),
      eventType: "fleet-auditor.test",
      additionalContext: { testId: ctx.testId, topic: ctx.topic, at: ctx.at, sender: slackText(sender, 100) },
    },
  };
  const structured: TestV1 = {
    schema: TEST_V1,
    ...(ctx.landscape ? { landscape: ctx.landscape } : {}),
    testId: ctx.testId,
    key: testKey(ctx),
    topic: ctx.topic,
    at: ctx.at,
    sender,
    channels,
    subject,
    text: text[0],
  };
  return {
    subject,
    message: snsMessage({
      default: JSON.stringify(structured),
      email: text.join("\n"),
      https: JSON.stringify(chatbot),
    }),
    attributes: { audit: "notify-test", severity: "info", kinds: ["test"], format: "test" },
    topics: [ctx.topic],
    transitions: [],
    omitted: [],
  };
}

/** The test's key on one topic: a pager alert opened under it is this test's, and no other's. */
function testKey(ctx: TestNoticeContext): string {
  const identity = JSON.stringify([ctx.landscape ?? "", "test", ctx.topic, ctx.testId]);
  return `tst-${createHash("sha256").update(identity).digest("base64url").slice(0, 24)}`;
}
