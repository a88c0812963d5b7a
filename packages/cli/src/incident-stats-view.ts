import type { IncidentBreakdown, IncidentStats } from "@fleet-auditor/audit";
import { durationText, flappingText, minuteOf, whatOf } from "./incident-text.ts";
import { escapeControl, renderTable } from "./table.ts";

/**
 * `incidents stats` for people: the window's counts and times to resolve, then a table per
 * breakdown (audit, reason, region), the noisiest incidents and the flapping series, each said
 * to be such: "flapping (3 times in the window)". `flapAfter` is the bar the series passed.
 */
export function incidentStatsText(s: IncidentStats, flapAfter: number): string {
  const ttr = s.timeToResolve;
  const head = [
    `incidents from ${minuteOf(s.since)} to ${minuteOf(s.until)} UTC: ${s.opened} opened, ${s.ended} ended, ${s.open} open at the end`,
    ttr.count
      ? `time to resolve (${ttr.count} ended): p50 ${durationText(ttr.p50Ms)}, p90 ${durationText(ttr.p90Ms)}`
      : "time to resolve: none ended in the window",
  ];
  const sections = [
    head.map(escapeControl).join("\n"),
    breakdown("AUDIT", s.byAudit),
    breakdown("REASON", s.byReason),
    breakdown("REGION", s.byRegion),
  ];
  if (s.noisiest.length)
    sections.push(
      `noisiest (most events):\n${renderTable(
        ["KEY", "AUDIT", "ROUTE", "WHAT", "EVENTS", "MEMBERS", "PAGES", "REMINDERS", "CHANGES"],
        s.noisiest.map((n) => [
          n.key,
          n.audit,
          n.route,
          whatOf(n.values),
          String(n.events),
          String(n.members),
          String(n.pages),
          String(n.reminders),
          String(n.changes),
        ]),
      )}`,
    );
  sections.push(
    s.flapping.length
      ? `flapping (opened and ended ${flapAfter} times or more):\n${renderTable(
          ["AUDIT", "ROUTE", "WHAT", "FLAPPING", "KEYS (OLDEST FIRST)"],
          s.flapping.map((f) => [
            f.audit,
            f.route,
            whatOf(f.values),
            flappingText(f.episodes),
            f.keys.join(", "),
          ]),
        )}`
      : `flapping: none opened and ended ${flapAfter} times or more`,
  );
  return sections.join("\n\n");
}

/** One breakdown's table, headed by what it breaks down by; nothing opened or ended: a line. */
function breakdown(by: string, rows: readonly IncidentBreakdown[]): string {
  if (rows.length === 0) return `${by}: no incidents`;
  return renderTable(
    [by, "OPENED", "ENDED", "P50", "P90"],
    rows.map((r) => [
      // An empty value: a label the incidents' members lack (`(mixed)` when they differ).
      r.value || "(none)",
      String(r.opened),
      String(r.ended),
      durationText(r.p50Ms),
      durationText(r.p90Ms),
    ]),
  );
}
