import { humanDuration, type IncidentRecord, SEVERITY_RANK, type Severity } from "@fleet-auditor/audit";
import { dataText } from "./html-escape.ts";

// How the report page writes an incident's parts, once for its table, lists and timelines. Every
// function here returns HTML-safe text.

/** What an incident is about: its group's values (`region=eu-central-1, plan=aws`), escaped. */
export function whatHtml(values: Readonly<Record<string, string>>): string {
  const entries = Object.entries(values);
  if (entries.length === 0) return "(all of the route)";
  return dataText(entries.map(([label, value]) => `${label}=${value}`).join(", "), 400);
}

/** A severity the page knows (its colour, its rank), `unknown` for anything else a store held. */
export function severityOf(severity: unknown): Severity | "unknown" {
  return typeof severity === "string" && Object.hasOwn(SEVERITY_RANK, severity)
    ? (severity as Severity)
    : "unknown";
}

/** The severity's rank for sorting: critical first when descending. */
export function severityRank(severity: Severity | "unknown"): number {
  return severity === "unknown" ? 0 : SEVERITY_RANK[severity];
}

/** `11-29 10:00` (UTC, the page says so once) from an ISO time; `?` when it does not parse. */
export function shortUtc(iso: string | undefined): string {
  // The history writes `toISOString()`'s form: read as it is, without a Date for each of the rows.
  if (iso !== undefined && CANONICAL.test(iso)) return `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
  const t = Date.parse(iso ?? "");
  return Number.isNaN(t) ? "?" : new Date(t).toISOString().slice(5, 16).replace("T", " ");
}
const CANONICAL = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/;

/** `2026-11-29 10:00 UTC`; `?` when it does not parse. */
export function longUtc(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? "?" : `${new Date(t).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** `3h 20m`; `—` for no value. */
export function durationText(ms: number | undefined): string {
  return ms === undefined || !Number.isFinite(ms) ? "—" : humanDuration(ms);
}

/** A count from a stored item: its digits, or 0 when the item held anything else. */
export function count(n: unknown): number {
  return typeof n === "number" && Number.isFinite(n) ? n : 0;
}

/**
 * An incident's time to resolve, or its age at the window's end while open (ms; NaN when its
 * times do not parse).
 */
export function lastedMs(r: IncidentRecord, until: number): number {
  if (r.endedAt !== undefined) return r.durationMs ?? Date.parse(r.endedAt) - Date.parse(r.openedAt);
  return until - Date.parse(r.openedAt);
}
