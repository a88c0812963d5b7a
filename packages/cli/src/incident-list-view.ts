import type { IncidentRecord } from "@fleet-auditor/audit";
import { durationText, flappingMark, minuteOf, whatOf } from "./incident-text.ts";
import { listTable } from "./output.ts";
import { csvCell } from "./table.ts";

/** Episodes of a flapping series, by the key of each of its incidents. */
export type FlappingEpisodes = ReadonlyMap<string, number>;

const HEADERS = [
  "KEY",
  "AUDIT",
  "ROUTE",
  "WHAT",
  "SEVERITY",
  "OPENED",
  "ENDED",
  "DURATION",
  "MEMBERS",
  "FIRING",
  "PAGES",
  "FLAPPING",
] as const;

/**
 * `incidents list` for people: one row per incident, newest opening first as given, times in UTC
 * to the minute, `open` for one that has not ended. `--no-headers` leaves the header out.
 */
export function incidentListTable(
  records: readonly IncidentRecord[],
  flapping: FlappingEpisodes,
  noHeaders: boolean,
): string {
  return listTable(
    HEADERS,
    records.map((r) => [
      r.key,
      r.audit,
      r.route,
      whatOf(r.values),
      r.severity,
      minuteOf(r.openedAt),
      r.endedAt === undefined ? "open" : minuteOf(r.endedAt),
      durationText(r.durationMs),
      String(r.members),
      String(r.firing),
      String(r.pages),
      flappingMark(flapping.get(r.key)),
    ]),
    { empty: "no incidents", noHeaders },
  );
}

const CSV_COLUMNS = [
  "key",
  "audit",
  "route",
  "receiver",
  "what",
  "severity",
  "openedAt",
  "startsAt",
  "endedAt",
  "durationMs",
  "members",
  "peak",
  "firing",
  "changes",
  "reminders",
  "pages",
  "silenced",
  "inhibited",
  "events",
  "flapping",
] as const;

/**
 * `incidents list -o csv`: RFC 4180 with a header, one record per line, cells as `csvCell`
 * makes them (escaped, formula-guarded); times in ISO, durations in ms, for a spreadsheet.
 */
export function incidentListCsv(records: readonly IncidentRecord[], flapping: FlappingEpisodes): string {
  const rows = records.map((r) => {
    const cells: Record<(typeof CSV_COLUMNS)[number], string | number | undefined> = {
      key: r.key,
      audit: r.audit,
      route: r.route,
      receiver: r.receiver,
      what: whatOf(r.values),
      severity: r.severity,
      openedAt: r.openedAt,
      startsAt: r.startsAt,
      endedAt: r.endedAt,
      durationMs: r.durationMs,
      members: r.members,
      peak: r.peak,
      firing: r.firing,
      changes: r.changes,
      reminders: r.reminders,
      pages: r.pages,
      silenced: r.silenced,
      inhibited: r.inhibited,
      events: r.events,
      flapping: flapping.get(r.key),
    };
    return CSV_COLUMNS.map((c) => csvCell(String(cells[c] ?? ""))).join(",");
  });
  return [CSV_COLUMNS.join(","), ...rows].join("\r\n");
}
