import { type AlertPublisher, MESSAGE_TOPICS, type MessageTopic, oneLine } from "@fleet-auditor/audit";
import { redact } from "@fleet-auditor/http";
import { TEST_CHANNELS, testNotice } from "@fleet-auditor/render";
import { enum as oneOf, optional, strictObject } from "zod";
import { parseInput } from "./errors.ts";
import type { RunLogger } from "./ports.ts";
import { withSchemaKey } from "./schema-key.ts";

/**
 * The console event that sends a test message through each topic instead of running an audit:
 * `{ "notifyTest": {} }`, or `{ "notifyTest": { "topic": "critical" } }` for one. Unknown keys
 * are refused, so that a typo does not test a route nobody meant.
 */
export const NotifyTestInputSchema = withSchemaKey(
  strictObject({
    notifyTest: strictObject({ topic: optional(oneOf(MESSAGE_TOPICS as [MessageTopic, ...MessageTopic[]])) }),
  }),
);

/** True when an event asks for a test of the routes (`{ "notifyTest": … }`) rather than a run. */
export function isNotifyTestRequest(event: unknown): boolean {
  return typeof event === "object" && event !== null && Object.hasOwn(event, "notifyTest");
}

/** Parses `{ "notifyTest": { "topic"? } }`; throws `RunInputError` naming a bad field. */
export function parseNotifyTest(event: unknown): { topic?: MessageTopic } {
  const { topic } = parseInput(NotifyTestInputSchema, event).notifyTest;
  return topic ? { topic } : {};
}

/** What a test needs: the publisher the runs use, and which topics this stage has. */
export interface NotifyTestDeps {
  /** The runs' publisher: `snsAlertPublisher` (a `RoutedPublisher`) deployed, the outbox embedded. */
  publisher: AlertPublisher;
  /** The topics the publisher routes to (`alerts` always); another is reported as not configured. */
  topics: readonly MessageTopic[];
  /** The landscape's name, in every subject and title. */
  landscape?: string;
  /** Default the system clock. */
  clock?: () => Date;
  /** The test's ID. Default a random UUID. */
  newId?: () => string;
  log?: RunLogger;
}

/** What became of one topic's test message. */
export type TopicTest =
  | {
      topic: MessageTopic;
      status: "published";
      messageId: string;
      subject: string;
      /** Where it should show (`TEST_CHANNELS`). */
      channels: string;
    }
  | { topic: MessageTopic; status: "not-configured" }
  | { topic: MessageTopic; status: "refused"; error: string };

/** A test of the routes: its ID (in every message), when, by whom, and each chosen topic's outcome. */
export interface NotifyTestResult {
  testId: string;
  at: string;
  sender: string;
  /** One per chosen topic, in `MESSAGE_TOPICS` order. */
  topics: TopicTest[];
}

/**
 * Sends a test notice (`testNotice`: marked TEST, nothing is wrong) through each chosen topic, or
 * every topic when none is chosen, so that a new subscription can be checked end to end:
 *
 * 1. One test ID and time for the whole test.
 * 2. Per chosen topic the stage has: one message for that topic alone (`topics: [topic]`),
 *    published through the runs' publisher, in `MESSAGE_TOPICS` order; a topic the stage lacks is reported as
 *    `not-configured` and published nowhere.
 * 3. Each topic's outcome: `published` with SNS's message ID, or `refused` with the error
 *    (redacted, one line); one topic's refusal never stops another's message.
 *
 * It reads and writes no store: no run, snapshot, ledger, lease or health changes.
 */
export async function notifyTest(
  deps: NotifyTestDeps,
  request: { topic?: MessageTopic; sender: string },
): Promise<NotifyTestResult> {
  const testId = (deps.newId ?? (() => crypto.randomUUID()))();
  const at = (deps.clock ?? (() => new Date()))().toISOString();
  const sender = oneLine(request.sender, 100);
  const chosen = request.topic ? [request.topic] : MESSAGE_TOPICS;
  // One topic after the other: three publishes, and the outbox (and a subscriber that sees
  // several) gets them in `MESSAGE_TOPICS` order.
  const topics: TopicTest[] = [];
  for (const topic of chosen) topics.push(await testTopic(deps, topic, { testId, at, sender }));
  return { testId, at, sender, topics };
}

/** One topic's test message, published when the stage has the topic; what became of it. */
async function testTopic(
  deps: NotifyTestDeps,
  topic: MessageTopic,
  test: { testId: string; at: string; sender: string },
): Promise<TopicTest> {
  if (!deps.topics.includes(topic)) return { topic, status: "not-configured" };
  const message = testNotice({ ...test, topic, ...(deps.landscape ? { landscape: deps.landscape } : {}) });
  try {
    const { messageId } = await deps.publisher.publish(message);
    deps.log?.info("test message published", { testId: test.testId, topic, messageId });
    return {
      topic,
      status: "published",
      messageId,
      subject: message.subject,
      channels: TEST_CHANNELS[topic],
    };
  } catch (err) {
    const error = oneLine(redact((err as Error).message), 300);
    deps.log?.warn("test message refused", { testId: test.testId, topic, error });
    return { topic, status: "refused", error };
  }
}
