import { countOf, formatCount, humanDuration, shortTime } from "@fleet-auditor/audit";
import type { SummaryV1 } from "../structured/summary-v1-schema.ts";

// What an incident summary says, once for every channel: the headline (what is wrong first) and
// its sections as plain one-line rows. E-mail shows them as they are; Chatbot and the Slack
// function escape each row for Slack's markup (`slackText`), so that a label value from the fleet
// can never mention, link or format.

/** A section of a summary: its title and rows, and how many rows it left out. */
export interface SummarySection {
  title: string;
  rows: string[];
  more: number;
}

type Counts = Pick<SummaryV1, "opened" | "open" | "ended" | "timeToResolve" | "flapping" | "more">;

/**
 * What is wrong first: `12 incidents opened, 3 still open; p50 time to resolve 42m; 2 flapping`;
 * a quiet window says so (`no incident opened, none open`).
 */
export function summaryHeadline(doc: Counts): string {
  const opened = doc.opened === 0 ? "no incident opened" : `${countOf(doc.opened, "incidents")} opened`;
  const open = doc.open === 0 ? "none open" : `${formatCount(doc.open)} still open`;
  const p50 = doc.timeToResolve.p50Ms;
  const flapping = doc.flapping.length + (doc.more.flapping ?? 0);
  return [
    `${opened}, ${open}`,
    ...(p50 === undefined ? [] : [`p50 time to resolve ${humanDuration(p50)}`]),
    ...(flapping ? [`${formatCount(flapping)} flapping`] : []),
  ].join("; ");
}

/** The window and the audits, and the times to resolve in full: the line under the headline. */
export function summaryWindow(doc: SummaryV1): string {
  const { count, p50Ms, p90Ms } = doc.timeToResolve;
  const times =
    p50Ms === undefined || p90Ms === undefined
      ? "none ended"
      : `${formatCount(count)} ended: time to resolve p50 ${humanDuration(p50Ms)}, p90 ${humanDuration(p90Ms)}`;
  return `From ${shortTime(doc.since)} to ${shortTime(doc.until)}, ${doc.audits.length === 1 ? "audit" : "audits"} ${doc.audits.join(", ")}; ${times}.`;
}

/** The breakdowns, the flapping and the noisiest, each a section; an empty one is left out. */
export function summarySections(doc: SummaryV1): SummarySection[] {
  const more = (name: string): number => doc.more[name] ?? 0;
  const sections: SummarySection[] = [
    { title: "By audit", rows: doc.byAudit.map(breakdownRow), more: more("byAudit") },
    { title: "By reason", rows: doc.byReason.map(breakdownRow), more: more("byReason") },
    { title: "By region", rows: doc.byRegion.map(breakdownRow), more: more("byRegion") },
    {
      title: "Flapping (opened and ended again and again)",
      rows: doc.flapping.map(
        (f) =>
          `${f.audit} ${valuesText(f.values)}: ${countOf(f.episodes, "episodes")}, latest ${f.keys.at(-1) ?? "?"}`,
      ),
      more: more("flapping"),
    },
    {
      title: "Noisiest",
      rows: doc.noisiest.map(
        (n) =>
          `${n.audit} ${valuesText(n.values)} ${n.key}: ${countOf(n.events, "events")}, ${countOf(n.members, "members")}, ${countOf(n.pages, "pages")}, ${countOf(n.reminders, "reminders")}, ${countOf(n.changes, "changes")}`,
      ),
      more: more("noisiest"),
    },
  ];
  return sections.filter((s) => s.rows.length > 0);
}

function breakdownRow(r: SummaryV1["byAudit"][number]): string {
  const times =
    r.p50Ms === undefined || r.p90Ms === undefined
      ? ""
      : `, p50 ${humanDuration(r.p50Ms)}, p90 ${humanDuration(r.p90Ms)}`;
  return `${r.value}: ${formatCount(r.opened)} opened, ${formatCount(r.ended)} ended${times}`;
}

/** `region=eu-west-1 reason=quota`: an incident named by its values; `(whole audit)` for none. */
function valuesText(values: Readonly<Record<string, string>>): string {
  const pairs = Object.entries(values).map(([label, value]) => `${label}=${value}`);
  return pairs.length ? pairs.join(" ") : "(whole audit)";
}
