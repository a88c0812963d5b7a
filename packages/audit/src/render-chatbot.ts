import type { DigestContext } from "./digest.ts";
import type { Severity } from "./finding.ts";
import { cut, placement } from "./render-text.ts";
import type { Transition } from "./snapshot.ts";

const EMOJI: Record<Severity, string> = {
  critical: ":red_circle:",
  warning: ":large_orange_circle:",
  info: ":large_blue_circle:",
};
// Chatbot posts to Slack; keep each message readable there.
const MAX_LINES = 40;

/**
 * The AWS Chatbot (Amazon Q Developer in chat) custom-notification payload: `version` 1.0,
 * `source` custom, markdown content. Chatbot drops payloads it cannot read, so the shape is fixed.
 */
export function chatbotNotification(
  ctx: DigestContext,
  items: readonly Transition[],
  omitted: number,
  severity: Severity,
) {
  const lines = items.slice(0, MAX_LINES).map((t) => {
    const f = t.finding;
    const what = t.kind === "resolved" ? `resolved (was ${t.state})` : `${t.kind}: *${t.state}*`;
    const op =
      f.operation && t.kind !== "resolved"
        ? ` — ${f.operation.kind} ${f.operation.state}: ${cut(f.operation.description, 160)}`
        : "";
    return `${EMOJI[t.severity]} ${what} \`${f.instanceID}\` ${placement(f)}${op}`;
  });
  const more = items.length - lines.length + omitted;
  if (more > 0) lines.push(`…and ${more} more; see run \`${ctx.runId}\` in the run ledger`);
  if (!ctx.complete)
    lines.unshift(`:warning: Scan incomplete (${ctx.incompleteReason}); nothing was resolved.`);
  return {
    version: "1.0",
    source: "custom",
    id: `${ctx.runId}`,
    content: {
      textType: "client-markdown",
      title: `${EMOJI[severity]} fleet-auditor ${ctx.audit}: ${items.length} change(s)`,
      description: lines.join("\n"),
      keywords: [ctx.audit, severity],
    },
    metadata: {
      threadId: `fleet-auditor-${ctx.audit}`,
      summary: `${ctx.audit}: ${items.length} change(s), ${ctx.flagged} flagged`,
      eventType: `fleet-auditor.${ctx.audit}`,
      additionalContext: { runId: ctx.runId, at: ctx.at, complete: String(ctx.complete) },
    },
  };
}
