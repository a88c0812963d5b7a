import {
  countOf,
  type DigestContext,
  fillTemplate,
  formatCount,
  fromText,
  humanDuration,
  leftOutLine,
  listedBeside,
  oneLine,
  type PlannedGroup,
  pastableCommand,
  placeText,
  rollUpGroup,
  rollUps,
  rollUpText,
  type Severity,
  shortTime,
  slackCode,
  slackCommand,
  slackText,
  type TransitionGroup,
  type TransitionKind,
} from "@fleet-auditor/audit";
import { rollUpNoun } from "../roll-up-noun.ts";
import { incidentLine, incidentOf } from "../title/incident-line.ts";

/** The emoji a Slack message (Chatbot's or the webhook's) shows for a severity. */
export const SEVERITY_EMOJI: Readonly<Record<Severity, string>> = {
  critical: ":red_circle:",
  warning: ":large_orange_circle:",
  info: ":large_blue_circle:",
};
const VERB: Record<TransitionKind, string> = {
  firing: "new",
  changed: "changed",
  reminder: "still failing",
  resolved: "recovered",
};
/** Slack refuses section text over 3,000 characters; Chatbot's description is budgeted as one section. */
export const CHATBOT_DESCRIPTION_LIMIT = 3_000;
const EXAMPLES = 3;

/** The AWS Chatbot custom notification of one digest message. */
export interface ChatbotNotification {
  version: "1.0";
  source: "custom";
  id: string;
  content: {
    textType: "client-markdown";
    title: string;
    description: string;
    nextSteps: string[];
    keywords: string[];
  };
  metadata: {
    threadId: string;
    summary: string;
    eventType: string;
    additionalContext: Record<string, string>;
  };
}

/**
 * The AWS Chatbot (Amazon Q Developer in chat) custom notification: `version` 1.0, `source`
 * custom, `client-markdown` content (Chatbot drops what it cannot read, so the shape is fixed).
 * The description is the grouped summary within `CHATBOT_DESCRIPTION_LIMIT`; every text from KEB
 * is one line escaped for Slack, and every command is the e-mail's (audit's `commands.ts`), whole.
 * `id` is unique per message; `threadId` names the incident of the message's first group (audit,
 * state, reason, place and the day it began), so a new incident starts a thread and its changes,
 * reminders and resolution reply under it.
 */
export function chatbotNotification(
  ctx: DigestContext,
  groups: readonly PlannedGroup[],
  severity: Severity,
  title: string,
  sequence = 0,
): ChatbotNotification {
  const lines: string[] = [];
  // The incident's key, its start and whether it ended, before anything else: a page and this thread match by it.
  if (ctx.incident) lines.push(incidentLine(incidentOf(ctx.incident), ctx.at, (k) => slackCode(k, 100)));
  if (!ctx.complete) {
    lines.push(
      `:warning: Scan incomplete (${slackText(ctx.incompleteReason ?? "unknown", 300)}): nothing was resolved.`,
    );
  }
  if (ctx.repeats) {
    lines.push(
      `:repeat: Run ${slackCode(ctx.repeats, 80)} was interrupted after publishing: some of this may repeat its message.`,
    );
  }
  if (ctx.leftOut) lines.push(`:no_entry_sign: ${slackText(leftOutLine(ctx.leftOut), 600)}`);
  for (const r of rollUps(groups.map(rollUpGroup)))
    lines.push(
      `:bar_chart: *${VERB[r.kind]}:* ${rollUpText(r, slackText(rollUpNoun(groups, r), 40), (v) => slackCode(v, 80))}`,
    );
  const report = reportLine(ctx);
  // Room kept for the report line and a "+N more" line.
  const budget = CHATBOT_DESCRIPTION_LIMIT - report.length - 120;
  let used = lines.reduce((n, l) => n + l.length + 1, 0);
  let hidden = 0;
  let hiddenTransitions = 0;
  const listed = listedBeside(groups.map(rollUpGroup));
  for (const [i, g] of groups.entries()) {
    const line = groupLine(ctx, g);
    if (!listed[i] || used + line.length + 1 > budget) {
      hidden++;
      hiddenTransitions += g.members.length;
      continue;
    }
    lines.push(line);
    used += line.length + 1;
  }
  if (hidden > 0) lines.push(`…and ${formatCount(hiddenTransitions)} more in ${countOf(hidden, "groups")}.`);
  lines.push(report);
  const first = groups[0];
  return {
    version: "1.0",
    source: "custom",
    id: `${ctx.runId}:${sequence}`,
    content: {
      textType: "client-markdown",
      title: `${SEVERITY_EMOJI[severity]} ${slackText(title, 250)}`,
      description: lines.join("\n").slice(0, CHATBOT_DESCRIPTION_LIMIT),
      nextSteps: nextSteps(groups.find((g) => g.kind !== "resolved")),
      keywords: [ctx.audit, severity, ...(ctx.landscape ? [ctx.landscape] : [])].map((k) => slackText(k, 60)),
    },
    metadata: {
      threadId: ctx.incident
        ? incidentThreadId(ctx, ctx.incident.thread ?? ctx.incident.key)
        : threadId(ctx, first),
      summary: slackText(title, 250),
      eventType: `fleet-auditor.${ctx.audit}`,
      additionalContext: {
        runId: oneLine(ctx.runId, 100),
        at: ctx.at,
        complete: String(ctx.complete),
        ...(ctx.repeats ? { repeats: oneLine(ctx.repeats, 100) } : {}),
        ...(ctx.landscape ? { landscape: oneLine(ctx.landscape, 60) } : {}),
      },
    },
  };
}

/** One incident per thread: audit, state, reason, place and the day it began (not the kind). */
function threadId(ctx: Pick<DigestContext, "audit" | "landscape" | "runId">, g?: TransitionGroup): string {
  if (!g) return `fleet-auditor:${ctx.landscape ?? "-"}:${ctx.audit}:${ctx.runId}`;
  const incident = [
    ctx.landscape ?? "-",
    ctx.audit,
    g.state,
    g.reason || "-",
    placeText(g) || "-",
    // The day it was first seen: a thread keeps its name when onsets become known.
    g.firstSeenAt.slice(0, 10),
  ];
  return `fleet-auditor:${incident.map((p) => p.replace(/[^\w.-]+/g, "_")).join(":")}`;
}

/** One incident, one thread, from its first firing to its end: named by its `incidentKey`. */
function incidentThreadId(ctx: Pick<DigestContext, "audit" | "landscape">, key: string): string {
  const parts = [ctx.landscape ?? "-", ctx.audit, "incident", key];
  return `fleet-auditor:${parts.map((p) => p.replace(/[^\w.-]+/g, "_")).join(":")}`.slice(0, 500);
}

function groupLine(ctx: DigestContext, g: PlannedGroup): string {
  const examples = g.told
    .slice(0, EXAMPLES)
    .map(({ transition: t }) => slackCode(t.finding.summary || t.key, 40))
    .join(", ");
  const more = g.members.length > EXAMPLES ? ` +${formatCount(g.members.length - EXAMPLES)}` : "";
  const reason = g.reason ? ` ${slackCode(g.reason, 80)}` : "";
  const place = placeText(g);
  const where = place ? ` in ${slackCode(place, 40)}` : "";
  const age =
    g.kind === "resolved"
      ? ""
      : `, since ${shortTime(g.since)} (${humanDuration(Date.parse(ctx.at) - Date.parse(g.since))})`;
  const was = g.from?.length ? ` (${fromText(g.from, (w) => slackText(w, 80))})` : "";
  const emoji = g.kind === "resolved" ? ":white_check_mark:" : SEVERITY_EMOJI[g.severity];
  return `${emoji} *${formatCount(g.members.length)} ${VERB[g.kind]}* ${slackCode(g.state, 40)}${reason}${where}${was}${age}: ${examples}${more}`;
}

/** Where every transition is: the report's link and command, the run named once (in the command). */
function reportLine(ctx: DigestContext): string {
  if (!ctx.report.stored)
    return "The run report could not be stored: what is not named here is sent again next run.";
  const url = fillTemplate(ctx.links?.report, { runId: ctx.runId });
  const pastable = pastableCommand(ctx.report.command);
  const command = pastable ? slackCommand(pastable) : "";
  const link = url ? `<${url}|run report>` : "";
  if (link && command) return `Full report: ${link} or ${command}`;
  return `Full report: ${link || command || `the run report of ${slackCode(ctx.runId, 80)}`}`;
}

/**
 * What to do about the first group that needs action (not a resolution): open and inspect its
 * first member, its runbook, how to silence the group. The report is the description's last line.
 */
function nextSteps(g: PlannedGroup | undefined): string[] {
  const steps: string[] = [];
  const m = g?.told[0];
  if (m) {
    const { links, transition: t } = m;
    if (links.runtime) steps.push(`Open <${links.runtime}|${slackText(t.finding.summary || t.key, 60)}>`);
    if (m.inspect) steps.push(`Inspect: ${slackCommand(m.inspect)}`);
    if (links.runbook) steps.push(`Runbook: <${links.runbook}|${slackText(g?.reason || "runbook", 60)}>`);
  }
  if (g?.silence) steps.push(`Silence: ${slackCommand(g.silence)}`);
  return steps;
}
