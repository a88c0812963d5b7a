import type { IncidentEvent, IncidentRecord, IncidentStats } from "@fleet-auditor/audit";
import { dataText } from "./html-escape.ts";
import { reportPolicy } from "./report-csp.ts";
import { longUtc } from "./report-format.ts";
import { REPORT_SCRIPT } from "./report-script.ts";
import { REPORT_STYLE } from "./report-style.ts";
import { breakdownHtml, countsHtml, flappingHtml, noisiestHtml } from "./report-summary.ts";
import { incidentTableHtml } from "./report-table.ts";
import { timelineSvg } from "./report-timeline-svg.ts";
import { timelinesHtml } from "./report-timelines.ts";

/** What the report page shows: a window's incidents, their statistics and timelines. */
export interface IncidentReportInput {
  /** The landscape the incidents are of, when the stage names one. */
  landscape?: string;
  /** The window (ISO) and when the page was made (ISO): the page reads no clock. */
  since: string;
  until: string;
  generatedAt: string;
  /** The window's incidents: one table row each. */
  records: IncidentRecord[];
  /** Their timelines by key, oldest event first, for as many as were read. */
  timelines?: ReadonlyMap<string, IncidentEvent[]>;
  /** `incidentStats` of the same records and window. */
  stats: IncidentStats;
}

// Computed once: the style and the script are constants, so is the policy that allows them.
let policy: string | undefined;

/**
 * The incident report: one self-contained HTML page that makes no request of any kind (its
 * style and script inline, allowed by their hashes in a `Content-Security-Policy` meta that
 * forbids everything else). It holds the counts, an SVG timeline of the window (bounded), time
 * to resolve by audit, reason and region, the flapping and the noisiest incidents, the table of
 * incidents sortable by any column, and the most recent incidents' timelines. Every text from the
 * records is escaped, in text and attributes alike. Pure: the times are given.
 *
 * @example
 * const stats = incidentStats(records, { since, until });
 * const html = incidentReportHtml({ since: since.toISOString(), until: until.toISOString(),
 *   generatedAt: now.toISOString(), records, stats });
 */
export function incidentReportHtml(input: IncidentReportInput): string {
  policy ??= reportPolicy(REPORT_STYLE, REPORT_SCRIPT);
  const since = Date.parse(input.since);
  const until = Date.parse(input.until);
  const where = input.landscape ? `${dataText(input.landscape, 80)} · ` : "";
  const between = `${longUtc(input.since)} to ${longUtc(input.until)}`;
  const timelines = timelinesHtml(input.records, input.timelines);
  const { stats } = input;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Incidents · ${where}${between}</title>
<style>${REPORT_STYLE}</style></head>
<body>
<header><h1>Incidents · ${where}${between}</h1>
<p class="meta">Generated ${longUtc(input.generatedAt)} by fleet-auditor.</p>
${countsHtml(stats)}</header>
<main>
<h2>Timeline</h2>
<p class="legend"><span><i class="c"></i>critical</span><span><i class="w"></i>warning</span><span><i class="i"></i>info</span><span><i class="o"></i>still open</span></p>
${timelineSvg(input.records, since, until)}
<h2>Time to resolve</h2>
<p class="note">Over the incidents that ended in the window: the bar is the p90, its dark part the p50 (nearest rank).</p>
<div class="breakdowns">${breakdownHtml("audit", stats.byAudit)}${breakdownHtml("reason", stats.byReason)}${breakdownHtml(
    "region",
    stats.byRegion,
  )}</div>
<h2>Flapping</h2>
<p class="note">Values whose incidents opened and ended again and again in the window; each episode is one incident in the counts.</p>
${flappingHtml(stats)}
<h2>Noisiest</h2>
${noisiestHtml(stats)}
<h2>Incidents</h2>
<div class="scroll">${incidentTableHtml(input.records, until, timelines.ids)}</div>
<h2>Timelines</h2>
${timelines.html}
</main>
<script>${REPORT_SCRIPT}</script>
</body></html>
`;
}
