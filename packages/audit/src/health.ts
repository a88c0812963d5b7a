import type { DigestContext, DigestMessage } from "./message.ts";
import { asciiSubject } from "./subject.ts";
import { humanDuration, oneLine, shortTime, slackText } from "./text.ts";

/** Whether an audit has been able to see the fleet lately; kept per audit between runs. */
export interface AuditHealth {
  /** Consecutive runs that were incomplete or failed. */
  badRuns: number;
  /** When the first of them ran (ISO); null while healthy. */
  badSince: string | null;
  /** Why the latest bad run could not see everything. */
  lastReason: string | null;
  /** A `degraded` notice went out for this episode (so one `recovered` is owed). */
  degradedNotified: boolean;
  /**
   * Digests of the left-out findings already told (`left-out.ts`), so that one is told once while
   * it persists. Kept here, the audit's one small item that every run reads.
   */
  leftOutTold?: string[];
}

export const HEALTHY: AuditHealth = { badRuns: 0, badSince: null, lastReason: null, degradedNotified: false };

/** Default number of consecutive bad runs before one `degraded` notice. */
export const DEGRADED_AFTER_RUNS = 3;

/** What one run means for the audit's health, and the notice it owes, if any. */
export interface HealthStep {
  health: AuditHealth;
  /** True when `health` differs from before and must be written. */
  changed: boolean;
  notice?: "degraded" | "recovered";
}

/**
 * The next health after a run: a bad run (incomplete or failed) counts, and the
 * `degradedAfterRuns`-th in a row owes one `degraded` notice; the first good run after a notice
 * owes one `recovered`. A good run while healthy changes nothing (steady state writes nothing).
 */
export function nextHealth(
  previous: AuditHealth,
  run: { ok: boolean; at: string; reason: string | null },
  degradedAfterRuns = DEGRADED_AFTER_RUNS,
): HealthStep {
  const kept = previous.leftOutTold ? { leftOutTold: previous.leftOutTold } : {};
  if (run.ok) {
    if (previous.badRuns === 0 && !previous.degradedNotified) return { health: previous, changed: false };
    return {
      health: { ...HEALTHY, ...kept },
      changed: true,
      ...(previous.degradedNotified ? { notice: "recovered" as const } : {}),
    };
  }
  const health: AuditHealth = {
    badRuns: previous.badRuns + 1,
    badSince: previous.badSince ?? run.at,
    lastReason: run.reason,
    degradedNotified: previous.degradedNotified,
    ...kept,
  };
  if (!health.degradedNotified && health.badRuns >= degradedAfterRuns)
    return { health, changed: true, notice: "degraded" };
  return { health, changed: true };
}

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
  const text =
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
    message: JSON.stringify({ default: text[0], email: text.join("\n"), https: JSON.stringify(chatbot) }),
    attributes: { audit: ctx.audit, severity: notice === "degraded" ? "warning" : "info", kinds: [notice] },
    transitions: [],
    omitted: [],
  };
}
