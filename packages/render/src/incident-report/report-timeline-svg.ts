import type { IncidentRecord } from "@fleet-auditor/audit";
import { dataText } from "./html-escape.ts";
import { durationText, lastedMs, longUtc, severityOf, whatHtml } from "./report-format.ts";

// The window at a glance: one bar per incident from its opening to its end (or to the window's
// end while open), coloured by severity. Bounded whatever the window holds: at most
// `MAX_TIMELINE_ROWS` bars, the most recent openings, and a line saying how many more there are.

/** The most bars the timeline draws. */
const MAX_TIMELINE_ROWS = 300;
const WIDTH = 1000;
const AXIS = 22;
const HOUR = 3_600_000;
/** Tick steps, smallest first: the first that gives at most ten ticks is used. */
const STEPS = [1, 3, 6, 12, 24, 48, 168, 336, 720].map((h) => h * HOUR);

/** The timeline's SVG and, when it left incidents out, the sentence that says so. */
export function timelineSvg(records: readonly IncidentRecord[], since: number, until: number): string {
  const span = Math.max(1, until - since);
  const drawn = records
    .map((r) => ({ r, opened: Date.parse(r.openedAt) }))
    .filter(({ opened }) => Number.isFinite(opened))
    .sort((a, b) => b.opened - a.opened)
    .slice(0, MAX_TIMELINE_ROWS)
    .reverse()
    .map(({ r }) => r);
  // Rows thin out as they grow, so that the chart stays about 600 px high at most.
  const row = Math.max(2, Math.min(14, Math.floor(600 / Math.max(1, drawn.length))));
  const height = AXIS + drawn.length * row + 4;
  const x = (t: number): number => Math.round(((Math.min(until, Math.max(since, t)) - since) / span) * WIDTH);
  const bars = drawn.map((r, i) => {
    const from = x(Date.parse(r.openedAt));
    const ended = r.endedAt === undefined ? Number.NaN : Date.parse(r.endedAt);
    const to = Number.isNaN(ended) ? WIDTH : x(ended);
    const open = r.endedAt === undefined ? " open" : "";
    const title = `${dataText(r.key)} · ${dataText(r.audit)} · ${whatHtml(r.values)} · ${
      open ? "open for" : "lasted"
    } ${durationText(lastedMs(r, until))}`;
    return `<rect class="sev-${severityOf(r.severity)}${open}" x="${from}" y="${AXIS + i * row}" width="${Math.max(
      2,
      to - from,
    )}" height="${Math.max(1, row - 1)}"><title>${title}</title></rect>`;
  });
  const more = records.length - drawn.length;
  const svg = `<svg class="timeline" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="Incidents over the window, one bar each">${ticks(
    since,
    until,
    height,
  )}${bars.join("")}</svg>`;
  return more > 0
    ? `${svg}<p class="note">The ${drawn.length} most recent incidents are drawn; ${more} more are in the table.</p>`
    : svg;
}

/** Vertical lines and their times along the top, at the first step giving ten ticks at most. */
function ticks(since: number, until: number, height: number): string {
  const span = Math.max(1, until - since);
  const step = STEPS.find((s) => span / s <= 10) ?? span / 10;
  const first = Math.ceil(since / step) * step;
  const out: string[] = [];
  for (let t = first; t <= until; t += step) {
    const x = Math.round(((t - since) / span) * WIDTH);
    const label = longUtc(new Date(t).toISOString()).slice(5, step < 24 * HOUR ? 16 : 10);
    out.push(
      `<line class="tick" x1="${x}" x2="${x}" y1="${AXIS - 6}" y2="${height}"></line><text class="tick" x="${x + 3}" y="${AXIS - 9}">${label}</text>`,
    );
  }
  return out.join("");
}
