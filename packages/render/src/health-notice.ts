import {
  type AuditHealth,
  type DigestContext,
  type DigestMessage,
  humanDuration,
  oneLine,
  shortTime,
  slackText,
} from "@fleet-auditor/audit";
import { snsMessage } from "@fleet-auditor/notify/sns-envelope";
import { asciiSubject } from "./subject.ts";

/**
 * A notice about the auditor itself (attributes `kinds=["degraded"]` or `["recovered"]`,
 * severity warning or info): since when, and why it cannot see the fleet.
 */
export function healthNotice(
  ctx: Pick<DigestContext, "audit" | "runId" | "at" | "landscape">,
  notice: "degraded" | "recovered",
  health: AuditHealth,
  previous: AuditHealth,
): DigestMessage {
  const where = ctx.landscape ? `[${ctx.landscape}] ` : "";
  const episode = notice === "degraded" ? health : previous;
  const since = episode.badSince ?? ctx.at;
  const lasted = humanDuration(Date.parse(ctx.at) - Date.parse(since));
  const reason = oneLine(episode.lastReason ?? "unknown", 500);
  // The first line is the notice for programs (`default`); the e-mail has them all.
  const text: [string, ...string[]] =
    notice === "degraded"
      ? [
          `fleet-auditor ${where}${ctx.audit} audit is DEGRADED: ${episode.badRuns} runs in a row could not see the whole fleet, since ${shortTime(since)} (${lasted}).`,
          `Latest reason: ${reason}`,
          "While it lasts nothing resolves, and new failures may go unseen. One notice is sent when a complete run follows.",
          `Run ${ctx.runId}.`,
        ]
      : [
          `fleet-auditor ${where}${ctx.audit} audit RECOVERED: a complete run at ${shortTime(ctx.at)} after ${lasted} of incomplete or failed runs (since ${shortTime(since)}).`,
          `The last reason was: ${reason}`,
          `Run ${ctx.runId}.`,
        ];
  const title =
    notice === "degraded"
      ? `${where}${ctx.audit} audit DEGRADED since ${shortTime(since)}`
      : `${where}${ctx.audit} audit RECOVERED after ${lasted}`;
  const chatbot = {
    version: "1.0",
    source: "custom",
    id: `${ctx.runId}:${notice}`,
    content: {
      textType: "client-markdown",
      title: `${notice === "degraded" ? ":warning:" : ":white_check_mark:"} ${slackText(title, 250)}`,
      description: text.map((l) => slackText(l, 900)).join("\n"),
      keywords: [ctx.audit, notice],
    },
    metadata: {
      threadId: `fleet-auditor:${ctx.landscape ?? "-"}:${ctx.audit}:health:${since.slice(0, 19)}`,
      summary: slackText(title, 250),
      eventType: `fleet-auditor.${ctx.audit}.${notice}`,
      additionalContext: { runId: ctx.runId, since },
    },
  };
  return {
    subject: asciiSubject(`[fleet-auditor] ${title}`),
    message: snsMessage({ default: text[0], email: text.join("\n"), https: JSON.stringify(chatbot) }),
    attributes: {
      audit: ctx.audit,
      severity: notice === "degraded" ? "warning" : "info",
      kinds: [notice],
      format: "health",
    },
    transitions: [],
    omitted: [],
  };
}
