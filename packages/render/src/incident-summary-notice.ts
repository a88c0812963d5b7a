import { type DigestMessage, type IncidentStats, slackCommand, slackText } from "@fleet-auditor/audit";
import { snsMessage } from "@fleet-auditor/notify/sns-envelope";
import { CHATBOT_DESCRIPTION_LIMIT, type ChatbotNotification } from "./chatbot/render-chatbot.ts";
import type { SummaryV1 } from "./structured/summary-v1-schema.ts";
import { type IncidentSummaryContext, summaryDocument } from "./summary/summary-document.ts";
import { type SummarySection, summarySections, summaryWindow } from "./summary/summary-text.ts";

/**
 * A window's incident summary (`format=summary`, severity `info`, `kinds=["summary"]`), for the
 * alerts topic: what is wrong first (`12 incidents opened, 3 still open; p50 time to resolve 42m;
 * 2 flapping`), then the window, the breakdowns by audit, reason and region, the flapping and
 * the noisiest incidents (each named by its values and key), and the commands that show more
 * (`incidents stats`, `incidents report … > report.html`) against the stage's store. Its `default`
 * is `fleet-auditor.summary/v1` (`SummaryV1Schema`), which the Slack function posts; its lists are
 * cut to their first rows, so that it weighs a few KB whatever the window held.
 */
export function incidentSummaryNotice(ctx: IncidentSummaryContext, stats: IncidentStats): DigestMessage {
  const doc = summaryDocument(ctx, stats);
  const sections = summarySections(doc);
  const commands = commandLines(doc);
  const email = [
    doc.text,
    summaryWindow(doc),
    ...sections.flatMap((s) => ["", `${s.title}:`, ...s.rows.map((r) => `- ${r}`), ...moreLine(s, "- ")]),
    "",
    ...(commands.length ? commands.map(([what, command]) => `${what}: ${command}`) : [NO_COMMAND]),
    `Summary ${doc.key}.`,
  ];
  return {
    subject: doc.subject,
    message: snsMessage({
      default: JSON.stringify(doc),
      email: email.join("\n"),
      https: JSON.stringify(chatbotSummary(doc, sections, commands)),
    }),
    attributes: { audit: ctx.audit ?? "all", severity: "info", kinds: ["summary"], format: "summary" },
    topics: ["alerts"],
    transitions: [],
    omitted: [],
  };
}

// What a summary says when no command can be pasted (a store named with a line break).
const NO_COMMAND =
  "fleet-auditor incidents stats and incidents report show more, against this stage's table.";

/** `[what, command]` of each command the summary suggests. */
function commandLines(doc: SummaryV1): Array<[string, string]> {
  const { stats, report } = doc.commands;
  return [
    ...(stats ? [["More", stats] as [string, string]] : []),
    ...(report ? [["As a page", report] as [string, string]] : []),
  ];
}

function moreLine(s: SummarySection, bullet: string): string[] {
  return s.more ? [`${bullet}+${s.more} more`] : [];
}

/**
 * The Chatbot notification: the headline as its title, the window and as many sections as fit
 * its description (rows escaped for Slack's markup), the commands as next steps; a thread of its
 * own, so that a summary never lands in an incident's thread.
 */
function chatbotSummary(
  doc: SummaryV1,
  sections: readonly SummarySection[],
  commands: ReadonlyArray<[string, string]>,
): ChatbotNotification {
  const title = doc.text.replace(/^fleet-auditor /, "").replace(/\.$/, "");
  const lines = [
    slackText(summaryWindow(doc), 900),
    ...sections.flatMap((s) => [
      `*${s.title}*`,
      ...s.rows.map((r) => `• ${slackText(r, 400)}`),
      ...moreLine(s, "• "),
    ]),
  ];
  // Whole lines only, the first ones: a description cut mid-row would misname an incident.
  while (lines.join("\n").length > CHATBOT_DESCRIPTION_LIMIT) lines.pop();
  return {
    version: "1.0",
    source: "custom",
    id: doc.key,
    content: {
      textType: "client-markdown",
      title: `:bar_chart: ${slackText(title, 250)}`,
      description: lines.join("\n"),
      nextSteps: commands.map(([what, command]) => `${what}: ${slackCommand(command)}`),
      keywords: ["summary", ...(doc.landscape ? [doc.landscape] : [])],
    },
    metadata: {
      threadId: `fleet-auditor:${doc.landscape ?? "-"}:summary:${doc.key}`,
      summary: slackText(title, 250),
      eventType: "fleet-auditor.summary",
      additionalContext: { window: doc.window, since: doc.since, until: doc.until },
    },
  };
}
