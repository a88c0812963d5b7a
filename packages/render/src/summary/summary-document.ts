import { createHash } from "node:crypto";
import {
  type CommandStore,
  type IncidentStats,
  incidentReportCommand,
  incidentStatsCommand,
  oneLine,
} from "@fleet-auditor/audit";
import { SUMMARY_V1 } from "../structured/summary-v1-name.ts";
import type { SummaryV1 } from "../structured/summary-v1-schema.ts";
import { asciiSubject } from "../subject.ts";
import { fitTitle } from "../title/fit-title.ts";
import { summaryHeadline } from "./summary-text.ts";

/** What a summary is of, and where its commands act. */
export interface IncidentSummaryContext {
  /** The landscape's name (`LANDSCAPE`): in the subject and every title. */
  landscape?: string;
  /** The window as it was asked for (`7d`): in the text and the suggested commands. */
  window: string;
  /** The audits whose incidents the statistics count. */
  audits: readonly string[];
  /** The one audit it was narrowed to, when it was: the commands say `--audit` too. */
  audit?: string;
  /** Where the suggested commands act: the stage's audit table. Default the CLI's store. */
  store?: CommandStore;
}

/** Rows each list keeps; the rest are counted (`more`): a summary stays a few KB whatever the week. */
export const SUMMARY_ROWS = { breakdown: 10, flapping: 10, noisiest: 5, keys: 5 } as const;
// A label value from the fleet, one line and bounded: enough to recognise, never a size risk.
const VALUE_MAX = 100;
const TAG = "[fleet-auditor]";
// SNS refuses a subject of 100 characters or more; the tag is kept whole after the rest.
const SUBJECT_ROOM = 99 - TAG.length - 1;

/**
 * The structured summary (`fleet-auditor.summary/v1`) of a window's statistics: every list cut to
 * its first rows (`SUMMARY_ROWS`, the rest counted in `more`), every label value on one line and
 * bounded, the suggested commands against `ctx.store`, the subject and the one-line text. Every
 * variant (e-mail, Chatbot, the Slack function's) is rendered from it.
 */
export function summaryDocument(ctx: IncidentSummaryContext, stats: IncidentStats): SummaryV1 {
  const more: Record<string, number> = {};
  const cut = <T>(name: string, rows: readonly T[], n: number): T[] => {
    if (rows.length > n) more[name] = rows.length - n;
    return rows.slice(0, n);
  };
  const breakdown = (name: string, rows: IncidentStats["byAudit"]) =>
    cut(name, rows, SUMMARY_ROWS.breakdown).map((r) => ({ ...r, value: oneLine(r.value, VALUE_MAX) }));
  const doc: Omit<SummaryV1, "subject" | "text"> = {
    schema: SUMMARY_V1,
    ...(ctx.landscape ? { landscape: ctx.landscape } : {}),
    key: summaryKey(ctx, stats),
    window: ctx.window,
    since: stats.since,
    until: stats.until,
    audits: ctx.audit ? [ctx.audit] : [...ctx.audits],
    opened: stats.opened,
    ended: stats.ended,
    open: stats.open,
    timeToResolve: stats.timeToResolve,
    byAudit: breakdown("byAudit", stats.byAudit),
    byReason: breakdown("byReason", stats.byReason),
    byRegion: breakdown("byRegion", stats.byRegion),
    flapping: cut("flapping", stats.flapping, SUMMARY_ROWS.flapping).map((f) => ({
      ...f,
      values: bounded(f.values),
      keys: f.keys.slice(-SUMMARY_ROWS.keys),
    })),
    noisiest: cut("noisiest", stats.noisiest, SUMMARY_ROWS.noisiest).map((n) => ({
      ...n,
      values: bounded(n.values),
    })),
    more,
    commands: commandsOf(ctx),
  };
  const where = ctx.landscape ? `[${ctx.landscape}] ` : "";
  const headline = summaryHeadline(doc);
  return {
    ...doc,
    subject: summarySubject(ctx, headline),
    text: `fleet-auditor ${where}incidents of the last ${ctx.window}: ${headline}.`,
  };
}

/**
 * `12 incidents opened, 3 still open; p50 time to resolve 42m | prod-eu | summary of 7d
 * [fleet-auditor]`: what is wrong first, the landscape kept before the aside, ASCII, under 100
 * characters, `[fleet-auditor]` last.
 */
function summarySubject(ctx: IncidentSummaryContext, headline: string): string {
  const title = fitTitle(
    [
      { role: "news", text: headline, sep: "" },
      { role: "landscape", text: ctx.landscape ?? "", sep: " | " },
      { role: "aside", text: `${ctx.audit ? `${ctx.audit} ` : ""}summary of ${ctx.window}`, sep: " | " },
    ],
    { max: SUBJECT_ROOM, ellipsis: "..." },
  );
  return asciiSubject(title, TAG);
}

/** The commands that show more, each left out when a value in it cannot be pasted. */
function commandsOf(ctx: IncidentSummaryContext): SummaryV1["commands"] {
  const stats = incidentStatsCommand(ctx.window, ctx.store, ctx.audit);
  const report = incidentReportCommand(ctx.window, ctx.store, ctx.audit);
  return { ...(stats ? { stats } : {}), ...(report ? { report } : {}) };
}

/**
 * Label values one line each and bounded; `fromEntries` defines each key, so that a label named
 * `__proto__` stays a label and never sets the object's prototype.
 */
function bounded(values: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).map(([label, value]) => [
      oneLine(label, VALUE_MAX),
      oneLine(String(value), VALUE_MAX),
    ]),
  );
}

/** The same window of the same audits and landscape has the same key. */
function summaryKey(ctx: IncidentSummaryContext, stats: IncidentStats): string {
  const identity = JSON.stringify([
    ctx.landscape ?? "",
    ctx.audit ? [ctx.audit] : ctx.audits,
    stats.since,
    stats.until,
  ]);
  return `sum-${createHash("sha256").update(identity).digest("base64url").slice(0, 24)}`;
}
