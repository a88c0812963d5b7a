import type { IncidentBreakdown, IncidentStats } from "@fleet-auditor/audit";
import { dataText } from "./html-escape.ts";
import { count, durationText, whatHtml } from "./report-format.ts";

// The statistics' parts of the report page: the counts, time to resolve by audit, reason and
// region as bars, the flapping groups and the noisiest incidents. Each list is bounded: a window
// with thousands of reasons still makes a page of a few screens.

/** The most rows a breakdown, the flapping list or the noisiest list shows. */
const MAX_ROWS = 15;
const BAR_WIDTH = 240;

/** The counts: opened, ended, open, and the time to resolve's p50 and p90. */
export function countsHtml(stats: IncidentStats): string {
  const tile = (label: string, value: string) =>
    `<div class="tile"><b>${value}</b><span>${label}</span></div>`;
  const t = stats.timeToResolve;
  return `<div class="tiles">${[
    tile("opened", String(count(stats.opened))),
    tile("ended", String(count(stats.ended))),
    tile("open at the end", String(count(stats.open))),
    tile(`time to resolve, p50 (of ${count(t.count)})`, durationText(t.p50Ms)),
    tile("time to resolve, p90", durationText(t.p90Ms)),
  ].join("")}</div>`;
}

/**
 * One breakdown as a table: value, opened, ended, and a bar of its p50 inside its p90 (SVG, on
 * one scale for the table: the longest p90).
 */
export function breakdownHtml(title: string, rows: readonly IncidentBreakdown[]): string {
  const shown = rows.slice(0, MAX_ROWS);
  const longest = Math.max(1, ...shown.map((r) => r.p90Ms ?? 0));
  const bar = (r: IncidentBreakdown): string => {
    if (r.p50Ms === undefined || r.p90Ms === undefined) return "";
    const w = (ms: number) => Math.max(1, Math.round((ms / longest) * BAR_WIDTH));
    return `<svg class="bar" viewBox="0 0 ${BAR_WIDTH} 12" width="${BAR_WIDTH}" height="12" aria-hidden="true"><rect class="p90" width="${w(r.p90Ms)}" height="12"></rect><rect class="p50" width="${w(r.p50Ms)}" height="12"></rect></svg>`;
  };
  const body = shown
    .map(
      (r) =>
        `<tr><th scope="row">${dataText(r.value, 120)}</th><td class="n">${count(r.opened)}</td><td class="n">${count(
          r.ended,
        )}</td><td>${bar(r)}</td><td>${durationText(r.p50Ms)} / ${durationText(r.p90Ms)}</td></tr>`,
    )
    .join("");
  return `<section class="breakdown"><h3>By ${title}</h3><table><thead><tr><th scope="col">${title}</th><th scope="col">opened</th><th scope="col">ended</th><th scope="col">time to resolve</th><th scope="col">p50 / p90</th></tr></thead><tbody>${
    body || `<tr><td colspan="5">none in the window</td></tr>`
  }</tbody></table>${more(rows.length - shown.length, `${title}s`)}</section>`;
}

/** Values whose incidents kept opening and ending, most episodes first. */
export function flappingHtml(stats: IncidentStats): string {
  if (stats.flapping.length === 0) return `<p class="note">Nothing flapped in the window.</p>`;
  const shown = stats.flapping.slice(0, MAX_ROWS);
  const rows = shown.map(
    (f) =>
      `<tr><td class="n">${count(f.episodes)}</td><td>${dataText(f.audit)}</td><td>${dataText(
        f.route,
      )}</td><td>${whatHtml(f.values)}</td><td class="keys">${f.keys
        .slice(0, 6)
        .map((k) => `<code>${dataText(k)}</code>`)
        .join(" ")}${f.keys.length > 6 ? " …" : ""}</td></tr>`,
  );
  return `<table><thead><tr><th scope="col">episodes</th><th scope="col">audit</th><th scope="col">route</th><th scope="col">what</th><th scope="col">keys, oldest first</th></tr></thead><tbody>${rows.join(
    "",
  )}</tbody></table>${more(stats.flapping.length - shown.length, "flapping groups")}`;
}

/** The incidents with the most events. */
export function noisiestHtml(stats: IncidentStats): string {
  if (stats.noisiest.length === 0) return `<p class="note">No incident in the window.</p>`;
  const rows = stats.noisiest
    .slice(0, MAX_ROWS)
    .map(
      (n) =>
        `<tr><td><code>${dataText(n.key)}</code></td><td>${dataText(n.audit)}</td><td>${dataText(
          n.route,
        )}</td><td>${whatHtml(n.values)}</td>${[n.events, n.members, n.pages, n.reminders, n.changes]
          .map((v) => `<td class="n">${count(v)}</td>`)
          .join("")}</tr>`,
    );
  return `<table><thead><tr>${[
    "key",
    "audit",
    "route",
    "what",
    "events",
    "members",
    "pages",
    "reminders",
    "changes",
  ]
    .map((h) => `<th scope="col">${h}</th>`)
    .join("")}</tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

const more = (n: number, noun: string): string => (n > 0 ? `<p class="note">and ${n} more ${noun}</p>` : "");
