import { oneLine, shortTime, slackCode, slackText } from "@fleet-auditor/audit";
import type { TestV1 } from "../structured/test-v1-schema.ts";
import { SLACK_LIMITS, type SlackMessage } from "./render-slack.ts";

/**
 * The Slack message of a structured test notice: marked TEST in its header and notification
 * text, saying that nothing is wrong, who sent it and when, and which topic it came through.
 * Every text a notice carries is escaped as a digest's: whoever can publish to the topic can
 * send one.
 */
export function testSlackMessage(notice: TestV1): SlackMessage {
  // The header is plain text (nothing in it formats); the notification text is mrkdwn, escaped.
  const where = notice.landscape ? `[${notice.landscape}] ` : "";
  const title = `:test_tube: [TEST] ${where}${notice.topic} topic: nothing is wrong`;
  const body = [
    `*This is a test message; nothing is wrong.* Sent by notify test (${slackText(notice.sender, 100)}, ${shortTime(notice.at)}) to check that the ${notice.topic} topic reaches this channel.`,
    `It should show in ${slackText(notice.channels, 400)}. If you can read it, this route works and nothing needs doing.`,
  ].join("\n");
  return {
    text: slackText(`[TEST] ${where}${notice.topic} topic: nothing is wrong`, 300),
    blocks: [
      {
        type: "header",
        text: { type: "plain_text", text: oneLine(title, SLACK_LIMITS.headerText), emoji: true },
      },
      { type: "section", text: { type: "mrkdwn", text: body } },
      {
        type: "context",
        elements: [
          { type: "mrkdwn", text: `fleet-auditor notify test · test ${slackCode(notice.testId, 100)}` },
        ],
      },
    ],
  };
}
