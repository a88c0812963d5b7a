import { humanDuration, oneLine, safeLink, shortTime, slackCode, slackText } from "@fleet-auditor/audit";
import type { HealthV1 } from "../structured/health-v1-schema.ts";
import { SLACK_LIMITS, type SlackBlock, type SlackMessage } from "./render-slack.ts";

/**
 * The Slack message of a structured health notice: what went wrong with the auditor itself, since
 * when, why, and where the runbook is (a button when it is a `safeLink`, else the docs'
 * section as text). Every text a notice carries is escaped as a digest's.
 */
export function healthSlackMessage(notice: HealthV1): SlackMessage {
  // The header is plain text (nothing in it formats); the notification text is mrkdwn, escaped.
  const where = notice.landscape ? `[${notice.landscape}] ` : "";
  const degraded = notice.status === "degraded";
  const lasted = humanDuration(Date.parse(notice.at) - Date.parse(notice.since));
  const title = degraded
    ? `:warning: ${where}${notice.audit} audit DEGRADED since ${shortTime(notice.since)}`
    : `:white_check_mark: ${where}${notice.audit} audit RECOVERED after ${lasted}`;
  const body = degraded
    ? `${notice.badRuns} runs in a row could not see the whole fleet (${lasted}). While it lasts nothing resolves, and new failures may go unseen.\n*Latest reason:* ${slackText(notice.reason, 600)}`
    : `A complete run at ${shortTime(notice.at)}, after ${notice.badRuns} incomplete or failed runs.\n*The last reason was:* ${slackText(notice.reason, 600)}`;
  const runbook =
    safeLink(notice.runbook) && notice.runbook.length <= SLACK_LIMITS.url ? notice.runbook : undefined;
  const blocks: SlackBlock[] = [
    {
      type: "header",
      text: { type: "plain_text", text: oneLine(title, SLACK_LIMITS.headerText), emoji: true },
    },
    {
      type: "section",
      text: { type: "mrkdwn", text: body },
      ...(runbook
        ? {
            accessory: {
              type: "button" as const,
              text: { type: "plain_text" as const, text: "Runbook", emoji: true },
              url: runbook,
              action_id: "runbook",
            },
          }
        : {}),
    },
    {
      type: "context",
      elements: [
        {
          type: "mrkdwn",
          text: `fleet-auditor · run ${slackCode(notice.runId, 100)}${runbook ? "" : ` · runbook: ${slackText(notice.runbook, 200)}`}`,
        },
      ],
    },
  ];
  return { text: slackText(title, 300), blocks };
}
