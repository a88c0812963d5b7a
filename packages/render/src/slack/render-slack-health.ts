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
  const lasted = humanDuration(Date.parse(notice.at) - Date.parse(notice.since));
  const { title, body } = wording(notice, where, lasted);
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

/** The header and the body of each kind of notice. */
function wording(notice: HealthV1, where: string, lasted: string): { title: string; body: string } {
  switch (notice.status) {
    case "degraded":
      return {
        title: `:warning: ${where}${notice.audit} audit DEGRADED since ${shortTime(notice.since)}`,
        body: `${notice.badRuns} runs in a row could not see the whole fleet (${lasted}). While it lasts nothing resolves, and new failures may go unseen.\n*Latest reason:* ${slackText(notice.reason, 600)}`,
      };
    case "recovered":
      return {
        title: `:white_check_mark: ${where}${notice.audit} audit RECOVERED after ${lasted}`,
        body: `A complete run at ${shortTime(notice.at)}, after ${notice.badRuns} incomplete or failed runs.\n*The last reason was:* ${slackText(notice.reason, 600)}`,
      };
    case "baseline":
      return {
        title: `:information_source: ${where}${notice.audit} audit ${notice.reason}; see the report`,
        body: [
          "The audit's first run on this stage recorded them without a message each; from the next run on, only news.",
          ...(notice.flagged?.length
            ? [
                `*By state:* ${slackText(notice.flagged.map((s) => `${s.state || "unknown"} ${s.count}`).join(", "), 600)}`,
              ]
            : []),
          ...(notice.report ? [`*Report:* ${slackCode(notice.report, 600)}`] : []),
        ].join("\n"),
      };
    case "not-configured":
      return {
        title: `:information_source: ${where}${notice.audit} audit not configured yet`,
        body: `Its runs since ${shortTime(notice.since)} cannot start; told once.\n*Why:* ${slackText(notice.reason, 600)}`,
      };
  }
}
