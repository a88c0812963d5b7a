import type { IncidentEvent, IncidentRecord } from "@fleet-auditor/audit";
import { dataText } from "./html-escape.ts";
import { count, longUtc, whatHtml } from "./report-format.ts";

// Each incident's timeline, oldest event first, folded (`<details>`): what each run told of it.
// Bounded: the `MAX_TIMELINES` most recent incidents that have one; the CLI's `incidents show KEY`
// prints any other's. Ten thousand timelines would be most of a page's weight and DOM for
// something read one at a time.

/** The most timelines the page holds. */
const MAX_TIMELINES = 200;
/** The most events one timeline shows (its first ones and its last ones). */
const MAX_EVENTS = 60;

/** The timelines' section, and each shown incident's element ID by its key. */
export function timelinesHtml(
  records: readonly IncidentRecord[],
  timelines: ReadonlyMap<string, readonly IncidentEvent[]> | undefined,
): { html: string; ids: Map<string, string> } {
  const ids = new Map<string, string>();
  const withTimeline = records.filter((r) => (timelines?.get(r.key)?.length ?? 0) > 0);
  if (!timelines || withTimeline.length === 0)
    return { html: `<p class="note">No timeline was read for this page.</p>`, ids };
  const shown = withTimeline
    .map((r) => ({ r, opened: Date.parse(r.openedAt) || 0 }))
    .sort((a, b) => b.opened - a.opened)
    .slice(0, MAX_TIMELINES)
    .map(({ r }) => r);
  const parts = shown.map((r, i) => {
    // IDs by position, never from data: a key is text, not a name the page's links may trust.
    const id = `timeline-${i + 1}`;
    ids.set(r.key, id);
    const events = timelines.get(r.key) ?? [];
    return `<details id="${id}"><summary><code>${dataText(r.key, 80)}</code> ${dataText(r.audit, 80)} · ${whatHtml(
      r.values,
    )} · ${events.length} events</summary><ol>${eventsHtml(events)}</ol></details>`;
  });
  const left = withTimeline.length - shown.length;
  const note =
    left > 0
      ? `<p class="note">The ${shown.length} most recent incidents' timelines are here; ${left} more: <code>fleet-auditor incidents show KEY</code>.</p>`
      : "";
  return { html: `${note}${parts.join("")}`, ids };
}

function eventsHtml(events: readonly IncidentEvent[]): string {
  const sorted = [...events].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  if (sorted.length <= MAX_EVENTS) return sorted.map(eventHtml).join("");
  const half = MAX_EVENTS / 2;
  return `${sorted.slice(0, half).map(eventHtml).join("")}<li class="gap">${
    sorted.length - MAX_EVENTS
  } events left out</li>${sorted.slice(-half).map(eventHtml).join("")}`;
}

function eventHtml(e: IncidentEvent): string {
  const counts = (
    [
      ["joined", e.joined],
      ["changed", e.changed],
      ["left", e.left],
      ["reminded", e.reminded],
      ["silenced", e.silenced],
      ["inhibited", e.inhibited],
    ] as const
  )
    .filter(([, n]) => count(n) > 0)
    .map(([what, n]) => `${count(n)} ${what}`);
  counts.push(`${count(e.firing)} firing`);
  const extra = [
    e.page ? `pager: ${dataText(e.page, 20)}` : "",
    e.silences?.length ? `silences ${e.silences.map((s) => dataText(s, 80)).join(", ")}` : "",
    e.inhibitedBy?.length ? `held back by ${e.inhibitedBy.map((k) => dataText(k, 120)).join(", ")}` : "",
    e.by ? `by ${dataText(e.by, 120)}${e.comment ? `: ${dataText(e.comment, 300)}` : ""}` : "",
  ].filter(Boolean);
  const examples = (e.examples ?? [])
    .slice(0, 3)
    .map((x) => `<li><code>${dataText(x.key, 120)}</code> ${dataText(x.summary, 200)}</li>`)
    .join("");
  return `<li><time>${longUtc(e.at)}</time> <b>${dataText([e.what].flat().join(", "), 120)}</b>: ${counts.join(", ")}${
    extra.length ? `; ${extra.join("; ")}` : ""
  }${examples ? `<ul>${examples}</ul>` : ""}</li>`;
}
