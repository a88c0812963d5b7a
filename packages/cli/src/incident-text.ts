import { humanDuration } from "@fleet-auditor/audit";

// How the incidents command writes an incident's fields in its tables: one spelling for list,
// show and stats. Every value may come from outside (a label value from KEB or the edge, a
// shared table): the tables escape it (`renderTable`), the show view each line (`escapeControl`).

/**
 * An incident's `groupBy` values as one cell, in the order it was grouped by:
 * `eu-central-1 / err_provisioning`; an empty value (a label its members lack) as `-`, and `-`
 * for an incident grouped by nothing.
 */
export function whatOf(values: Readonly<Record<string, string>>): string {
  const list = Object.values(values).map((v) => v || "-");
  return list.length ? list.join(" / ") : "-";
}

/** `LABEL=VALUE, …`, or `-` for none. */
export function labelsOf(labels: Readonly<Record<string, string>>): string {
  const list = Object.entries(labels).map(([name, value]) => `${name}=${value}`);
  return list.length ? list.join(", ") : "-";
}

/** An ISO time to the minute, UTC, as the tables show it (`2026-11-29 06:00`); `-` when absent. */
export function minuteOf(iso: string | undefined): string {
  if (iso === undefined) return "-";
  const t = Date.parse(iso);
  return Number.isNaN(t) ? "?" : new Date(t).toISOString().slice(0, 16).replace("T", " ");
}

/** A time to resolve for people (`3h 20m`), `-` when there is none. */
export function durationText(ms: number | undefined): string {
  return ms === undefined ? "-" : humanDuration(ms);
}

/** `FLAPPING`'s mark: how many episodes of the same values opened and ended in the window. */
export function flappingMark(episodes: number | undefined): string {
  return episodes === undefined ? "-" : `${episodes} times`;
}

/** The stats' and the show view's words for a flapping series. */
export function flappingText(episodes: number): string {
  return `flapping (${episodes} times in the window)`;
}
