import {
  type DigestContext,
  type DigestMessage,
  fillTemplate,
  oneLine,
  shortTime,
  slackText,
} from "@fleet-auditor/audit";
import { snsMessage } from "@fleet-auditor/notify/sns-envelope";
import { noticeKey } from "./health-notice.ts";
import { HEALTH_V1 } from "./structured/health-v1-name.ts";
import type { HealthV1 } from "./structured/health-v1-schema.ts";
import { asciiSubject } from "./subject.ts";

// The two notices of a stage's first day, beside the degraded and recovered ones
// (`health-notice.ts`), in the same structured form (`fleet-auditor.health/v1`): informational,
// sent to the alerts and incidents topics and never to the pager, which has no way to inform
// without paging someone (an Events API trigger of severity info still opens an incident).

/** Where a baseline notice points: what a new stage's first runs do. */
const BASELINE_DOC = "docs/deploy.md#first-deployment-of-a-stage";
/** Where a not-configured notice points: how a secret gets its value. */
const NOT_CONFIGURED_DOC = "docs/deploy.md#secrets";
// States named one by one in a baseline notice; the rest are counted.
const STATES_NAMED = 8;

type NoticeContext = Pick<DigestContext, "audit" | "runId" | "at" | "landscape" | "links">;

/**
 * The one notice of an audit's first scheduled run on a stage (`firstRun: baseline`): how many
 * findings it recorded without telling them one by one, by state, and the command that lists
 * them all (the run's report). `kinds=["baseline"]`, severity info, `format=health`, to the alerts
 * and incidents topics.
 */
export function baselineNotice(
  ctx: NoticeContext & Pick<DigestContext, "report">,
  flagged: ReadonlyArray<{ state: string; count: number }>,
): DigestMessage {
  const where = ctx.landscape ? `[${ctx.landscape}] ` : "";
  const total = flagged.reduce((n, s) => n + s.count, 0);
  const named = flagged.slice(0, STATES_NAMED).map((s) => `${oneLine(s.state || "unknown", 60)} ${s.count}`);
  const more = flagged.length > STATES_NAMED ? `, +${flagged.length - STATES_NAMED} more states` : "";
  const title = `${where}${ctx.audit} audit baseline: ${total} already failing; see the report`;
  const report = ctx.report.stored ? ctx.report.command : undefined;
  const text: [string, ...string[]] = [
    `fleet-auditor ${title}.`,
    ...(named.length ? [`By state: ${named.join(", ")}${more}.`] : []),
    `The audit's first run on this stage recorded them without a message each. From the next run on, it tells only news: a new failure, a change, a resolution, a reminder.`,
    report ? `Report: ${report}` : "The run's report could not be stored: the run's summary counts them.",
    `Run ${ctx.runId}.`,
  ];
  return informational(ctx, "baseline", title, text, {
    since: ctx.at,
    badRuns: 0,
    reason: `baseline: ${total} already failing`,
    runbook: runbookOf(ctx, "fleet-auditor-baseline", BASELINE_DOC),
    flagged: flagged.map((s) => ({ state: s.state, count: s.count })),
    ...(report ? { report } : {}),
  });
}

/**
 * The one notice of an audit whose runs cannot start because a secret they need has no value
 * yet (a stage deployed, its secret not put): which variable and secret, since when, and how to
 * put it. Sent once per episode (the audit's health remembers it). `kinds=["not-configured"]`,
 * severity info, `format=health`, to the alerts and incidents topics.
 */
export function notConfiguredNotice(ctx: NoticeContext, since: string, reason: string): DigestMessage {
  const where = ctx.landscape ? `[${ctx.landscape}] ` : "";
  const why = oneLine(reason, 500);
  const runbook = runbookOf(ctx, "fleet-auditor-not-configured", NOT_CONFIGURED_DOC);
  const title = `${where}${ctx.audit} audit not configured yet`;
  const text: [string, ...string[]] = [
    `fleet-auditor ${title}: its runs since ${shortTime(since)} cannot start, and say so once.`,
    `Why: ${why}`,
    "Put the secret's value (aws secretsmanager put-secret-value); the next scheduled run then starts, with no redeploy.",
    `Runbook: ${runbook}`,
    `Run ${ctx.runId}.`,
  ];
  return informational(ctx, "not-configured", title, text, { since, badRuns: 0, reason: why, runbook });
}

function runbookOf(ctx: NoticeContext, reason: string, doc: string): string {
  return fillTemplate(ctx.links?.runbook, { reason, audit: ctx.audit }) ?? doc;
}

/** A notice in every variant: e-mail text, Chatbot, `fleet-auditor.health/v1`. */
function informational(
  ctx: NoticeContext,
  status: "baseline" | "not-configured",
  title: string,
  text: [string, ...string[]],
  fields: Pick<HealthV1, "since" | "badRuns" | "reason" | "runbook" | "flagged" | "report">,
): DigestMessage {
  const chatbot = {
    version: "1.0",
    source: "custom",
    id: `${ctx.runId}:${status}`,
    content: {
      textType: "client-markdown",
      title: `:information_source: ${slackText(title, 250)}`,
      description: text.map((l) => slackText(l, 900)).join("\n"),
      keywords: [ctx.audit, status],
    },
    metadata: {
      threadId: `fleet-auditor:${ctx.landscape ?? "-"}:${ctx.audit}:${status}:${fields.since.slice(0, 19)}`,
      summary: slackText(title, 250),
      eventType: `fleet-auditor.${ctx.audit}.${status}`,
      additionalContext: { runId: ctx.runId, since: fields.since },
    },
  };
  const structured: HealthV1 = {
    schema: HEALTH_V1,
    ...(ctx.landscape ? { landscape: ctx.landscape } : {}),
    audit: ctx.audit,
    runId: ctx.runId,
    at: ctx.at,
    status,
    key: noticeKey(ctx, status, fields.since),
    ...fields,
    text: text[0],
  };
  return {
    subject: asciiSubject(`[fleet-auditor] ${title}`),
    message: snsMessage({
      default: JSON.stringify(structured),
      email: text.join("\n"),
      https: JSON.stringify(chatbot),
    }),
    attributes: { audit: ctx.audit, severity: "info", kinds: [status], format: "health" },
    // Not the critical topic: the pager would page someone for what needs nobody tonight.
    topics: ["alerts", "incidents"],
    transitions: [],
    omitted: [],
  };
}
