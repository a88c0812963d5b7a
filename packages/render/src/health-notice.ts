import { createHash } from "node:crypto";
import {
  type AuditHealth,
  type DigestContext,
  type DigestMessage,
  fillTemplate,
  humanDuration,
  oneLine,
  shortTime,
  slackText,
} from "@fleet-auditor/audit";
import { snsMessage } from "@fleet-auditor/notify/sns-envelope";
import { HEALTH_V1 } from "./structured/health-v1-name.ts";
import type { HealthV1 } from "./structured/health-v1-schema.ts";
import { asciiSubject } from "./subject.ts";

/** Where a notice points when no runbook template gives a page: its runbook in the docs. */
export const HEALTH_RUNBOOK_DOC = "docs/operate.md#a-degraded-notice";

/**
 * The reason a notice fills `RUNBOOK_URL_TEMPLATE`'s `{reason}` with: one page for the auditor's
 * own blindness, beside the pages of KEB's error reasons.
 */
const HEALTH_RUNBOOK_REASON = "fleet-auditor-degraded";

/**
 * A notice about the auditor itself (attributes `kinds=["degraded"]` or `["recovered"]`,
 * severity warning or info, `format=health`): since when, and why it cannot see the fleet. Its
 * `default` is `fleet-auditor.health/v1` (`HealthV1Schema`), whose `key` names the episode, so
 * that a pager closes on `recovered` the alert it opened on `degraded`.
 */
export function healthNotice(
  ctx: Pick<DigestContext, "audit" | "runId" | "at" | "landscape" | "links">,
  notice: "degraded" | "recovered",
  health: AuditHealth,
  previous: AuditHealth,
): DigestMessage {
  const where = ctx.landscape ? `[${ctx.landscape}] ` : "";
  const episode = notice === "degraded" ? health : previous;
  const since = episode.badSince ?? ctx.at;
  const lasted = humanDuration(Date.parse(ctx.at) - Date.parse(since));
  const reason = oneLine(episode.lastReason ?? "unknown", 500);
  const runbook =
    fillTemplate(ctx.links?.runbook, { reason: HEALTH_RUNBOOK_REASON, audit: ctx.audit }) ??
    HEALTH_RUNBOOK_DOC;
  const text: [string, ...string[]] =
    notice === "degraded"
      ? [
          `fleet-auditor ${where}${ctx.audit} audit is DEGRADED: ${episode.badRuns} runs in a row could not see the whole fleet, since ${shortTime(since)} (${lasted}).`,
          `Latest reason: ${reason}`,
          "While it lasts nothing resolves, and new failures may go unseen. One notice is sent when a complete run follows.",
          `Runbook: ${runbook}`,
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
  const structured: HealthV1 = {
    schema: HEALTH_V1,
    ...(ctx.landscape ? { landscape: ctx.landscape } : {}),
    audit: ctx.audit,
    runId: ctx.runId,
    at: ctx.at,
    status: notice,
    key: noticeKey(ctx, "health", since),
    since,
    badRuns: episode.badRuns,
    reason,
    runbook,
    text: text[0],
  };
  return {
    subject: asciiSubject(`[fleet-auditor] ${title}`),
    message: snsMessage({
      default: JSON.stringify(structured),
      email: text.join("\n"),
      https: JSON.stringify(chatbot),
    }),
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

/**
 * A notice's key: where (landscape, audit), what (`health`, `baseline`…) and since when, so the
 * next episode gets its own (the pager's dedup key of a health notice).
 */
export function noticeKey(
  ctx: Pick<DigestContext, "audit" | "landscape">,
  what: string,
  since: string,
): string {
  const identity = JSON.stringify([ctx.landscape ?? "", ctx.audit, what, since]);
  return `hlt-${createHash("sha256").update(identity).digest("base64url").slice(0, 24)}`;
}
