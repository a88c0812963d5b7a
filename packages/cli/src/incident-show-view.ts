import type { IncidentEvent, IncidentRecord } from "@fleet-auditor/audit";
import { durationText, flappingText, labelsOf, minuteOf, whatOf } from "./incident-text.ts";
import { escapeControl, renderTable } from "./table.ts";

/**
 * `incidents show` for people, as `kubectl describe` reads: the record, one field a line, then
 * the timeline oldest first, one row per run that told something of it. Every line is escaped
 * (`escapeControl`): label values and summaries are outside text.
 */
export function incidentShowText(record: IncidentRecord, events: readonly IncidentEvent[]): string {
  const head = fields(record)
    .map(([name, value]) => `${`${name}:`.padEnd(14)}${escapeControl(value)}`)
    .join("\n");
  if (events.length === 0) return `${head}\n\nno events kept`;
  const rows = events.map((e) => [
    minuteOf(e.at),
    `${e.what.join(", ")}${e.by ? ` by ${e.by}${e.comment ? `: ${e.comment}` : ""}` : ""}`,
    String(e.joined),
    String(e.left),
    String(e.changed),
    String(e.reminded),
    String(e.firing),
    e.page ?? "-",
    heldBack(e),
    e.examples?.length ? e.examples.map((x) => x.summary || x.key).join(", ") : "-",
  ]);
  const timeline = renderTable(
    ["TIME", "WHAT", "JOINED", "LEFT", "CHANGED", "REMINDED", "FIRING", "PAGE", "HELD BACK", "EXAMPLES"],
    rows,
  );
  return `${head}\n\n${timeline}`;
}

function fields(r: IncidentRecord): Array<[string, string]> {
  const ended =
    r.endedAt === undefined
      ? `open, ${r.firing} firing`
      : `${minuteOf(r.endedAt)} UTC, after ${durationText(r.durationMs)}`;
  const out: Array<[string, string]> = [
    ["Key", r.key],
    ["Audit", r.audit],
    ["Route", `${r.route} (to the ${r.receiver} topic)`],
    ["What", whatOf(r.values)],
    ["Grouped by", labelsOf(r.values)],
    ["Severity", r.severity],
    ["Opened", `${minuteOf(r.openedAt)} UTC (its problem began ${minuteOf(r.startsAt)} UTC)`],
    ["Ended", ended],
    ["Members", `${r.members} joined, at most ${r.peak} at once, ${r.firing} firing`],
    [
      "Told",
      `${r.events} event(s): ${r.changes} change(s), ${r.reminders} reminder(s), ${r.pages} page(s), ${r.silenced} silenced, ${r.inhibited} inhibited`,
    ],
    ["Shared", labelsOf(r.common)],
    ["Examples", r.examples.length ? r.examples.map((e) => `${e.key} (${e.summary})`).join(", ") : "-"],
  ];
  if (r.flapping)
    out.push(["Flapping", `${flappingText(r.flapping.episodes)}, told in ${r.flapping.postedIn}'s thread`]);
  if (r.thread) out.push(["Thread", `told in the roll-up ${r.thread}`]);
  if (r.acknowledged)
    out.push([
      "Acknowledged",
      `by ${r.acknowledged.by} at ${minuteOf(r.acknowledged.at)} UTC${r.acknowledged.comment ? `: ${r.acknowledged.comment}` : ""}`,
    ]);
  return out;
}

/** Silences and inhibitions that held members back in one event: `2 silenced (ID, ID)`; `-` for none. */
function heldBack(e: IncidentEvent): string {
  const parts: string[] = [];
  if (e.silenced)
    parts.push(`${e.silenced} silenced${e.silences?.length ? ` (${e.silences.join(", ")})` : ""}`);
  if (e.inhibited)
    parts.push(`${e.inhibited} inhibited${e.inhibitedBy?.length ? ` (by ${e.inhibitedBy.join(", ")})` : ""}`);
  return parts.length ? parts.join("; ") : "-";
}
