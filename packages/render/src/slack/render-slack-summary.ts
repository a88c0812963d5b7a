import { oneLine, slackCode, slackCommand, slackText } from "@fleet-auditor/audit";
import type { SummaryV1 } from "../structured/summary-v1-schema.ts";
import { summarySections, summaryWindow } from "../summary/summary-text.ts";
import { SLACK_LIMITS, type SlackBlock, type SlackMessage } from "./render-slack.ts";

/**
 * The Slack message of a structured incident summary: the headline as its header, the window,
 * a section per breakdown, the flapping and the noisiest incidents, and the commands that show
 * more. Every text a summary carries is escaped as a digest's: whoever can publish to the topic
 * can send one, and its label values come from the fleet.
 */
export function summarySlackMessage(doc: SummaryV1): SlackMessage {
  // The header is plain text (nothing in it formats); every other text is mrkdwn, escaped.
  const title = doc.text.replace(/^fleet-auditor /, "").replace(/\.$/, "");
  const sections = summarySections(doc).map(
    (s): SlackBlock => ({
      type: "section",
      text: {
        type: "mrkdwn",
        text: fit([
          `*${s.title}*`,
          ...s.rows.map((r) => `• ${slackText(r, 400)}`),
          ...(s.more ? [`• +${s.more} more`] : []),
        ]),
      },
    }),
  );
  const { stats, report } = doc.commands;
  const commands = [
    ...(stats ? [`*More:* ${slackCommand(stats)}`] : []),
    ...(report ? [`*As a page:* ${slackCommand(report)}`] : []),
  ];
  const blocks: SlackBlock[] = [
    {
      type: "header",
      text: {
        type: "plain_text",
        text: oneLine(`:bar_chart: ${title}`, SLACK_LIMITS.headerText),
        emoji: true,
      },
    },
    { type: "section", text: { type: "mrkdwn", text: slackText(summaryWindow(doc), 900) } },
    ...sections,
    ...(commands.length
      ? [{ type: "section" as const, text: { type: "mrkdwn" as const, text: fit(commands) } }]
      : []),
    {
      type: "context",
      elements: [{ type: "mrkdwn", text: `fleet-auditor incident summary · ${slackCode(doc.key, 100)}` }],
    },
  ];
  return { text: slackText(title, 300), blocks };
}

/** Whole lines within a section's text limit, the first ones. */
function fit(lines: string[]): string {
  const kept = [...lines];
  while (kept.length > 1 && kept.join("\n").length > SLACK_LIMITS.sectionText) kept.pop();
  return kept.join("\n").slice(0, SLACK_LIMITS.sectionText);
}
