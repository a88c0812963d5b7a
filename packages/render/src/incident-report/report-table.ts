import type { IncidentRecord } from "@fleet-auditor/audit";
import { dataText } from "./html-escape.ts";
import {
  count,
  durationText,
  lastedMs,
  severityOf,
  severityRank,
  shortUtc,
  whatHtml,
} from "./report-format.ts";

// The table of incidents, one row each, sortable by any column (report-script.ts). The DOM is kept
// lean for ten thousand rows: no attribute but the sort value where the text is not the value
// (times, durations, severity, the flapping mark), and no element beyond the cell but the key's
// link to its timeline.

/** The table's columns: heading, and whether it sorts by number (`data-v`, else the digits). */
const COLUMNS: ReadonlyArray<readonly [string, "num" | "text"]> = [
  ["Key", "text"],
  ["Audit", "text"],
  ["Route", "text"],
  ["What", "text"],
  ["Severity", "num"],
  ["Opened", "num"],
  ["Ended", "num"],
  ["Duration", "num"],
  ["Members", "num"],
  ["Peak", "num"],
  ["Pages", "num"],
  ["Flapping", "num"],
];
/** The column the rows come in order of (newest opening first), as `aria-sort` says. */
const OPENED = 5;
/** Sorts an open incident's end after every real one. */
const STILL_OPEN = 8.64e15;

/**
 * The incidents' table: newest opening first; `timelineIds` links a key to its timeline's
 * element ID where the page has one.
 */
export function incidentTableHtml(
  records: readonly IncidentRecord[],
  until: number,
  timelineIds: ReadonlyMap<string, string>,
): string {
  const head = COLUMNS.map(
    ([name, type], i) =>
      `<th scope="col" data-type="${type}"${i === OPENED ? ' aria-sort="descending"' : ""}><button type="button">${name}</button></th>`,
  ).join("");
  const rows = records
    .map((r) => ({ r, opened: sortable(time(r.openedAt)) }))
    .sort((a, b) => b.opened - a.opened)
    .map(({ r, opened }) => rowHtml(r, opened, until, timelineIds.get(r.key)));
  return `<table id="incidents" class="incidents"><caption>${records.length} incidents; times in UTC; click a heading to sort</caption><thead><tr>${head}</tr></thead><tbody>${rows.join(
    "",
  )}</tbody></table>`;
}

function rowHtml(r: IncidentRecord, opened: number, until: number, timelineId: string | undefined): string {
  const key = dataText(r.key, 80);
  const severity = severityOf(r.severity);
  const ended = r.endedAt === undefined ? undefined : time(r.endedAt);
  const lasted = r.endedAt === undefined ? until - opened : lastedMs(r, until);
  const flapping = r.flapping ? count(r.flapping.episodes) : 0;
  return `<tr><td>${timelineId ? `<a href="#${timelineId}">${key}</a>` : key}</td><td>${dataText(r.audit, 80)}</td><td>${dataText(
    r.route,
    80,
  )}</td><td>${whatHtml(r.values)}</td><td class="s-${severity}" data-v="${severityRank(severity)}">${severity}</td><td data-v="${opened}">${shortUtc(r.openedAt)}</td><td data-v="${ended === undefined ? STILL_OPEN : sortable(ended)}">${
    ended === undefined ? "open" : shortUtc(r.endedAt)
  }</td><td data-v="${sortable(lasted)}">${r.endedAt === undefined ? "open " : ""}${durationText(lasted)}</td><td>${count(
    r.members,
  )}</td><td>${count(r.peak)}</td><td>${count(r.pages)}</td><td data-v="${flapping}">${
    flapping ? `${flapping}×` : ""
  }</td></tr>`;
}

const time = (iso: string): number => Date.parse(iso);
/** A sort value the script can read back as a number: NaN sorts as 0. */
const sortable = (n: number): number => (Number.isFinite(n) ? n : 0);
