import type { IncidentEvent, IncidentHistory, IncidentRecord } from "@fleet-auditor/audit";

/**
 * The most incidents whose timelines `incidents report` reads for its page: the most recent
 * ones, as many as the page shows (it holds 200; `incidents show KEY` prints any other's).
 */
export const REPORT_TIMELINES = 200;

/** Timelines read at once: a few queries in flight, not 200 against a table that may throttle. */
const READS_AT_ONCE = 8;

/**
 * The timelines of the `REPORT_TIMELINES` most recently opened of `records`, by key, oldest event
 * first; an incident whose record went (its TTL) between the list and this read has none.
 */
export async function reportTimelines(
  history: IncidentHistory,
  records: readonly IncidentRecord[],
): Promise<Map<string, IncidentEvent[]>> {
  const recent = [...records]
    .sort((a, b) => (a.openedAt < b.openedAt ? 1 : a.openedAt > b.openedAt ? -1 : 0))
    .slice(0, REPORT_TIMELINES);
  const out = new Map<string, IncidentEvent[]>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < recent.length) {
      const r = recent[next++] as IncidentRecord;
      const found = await history.incidentTimeline([r.audit], r.key);
      if (found) out.set(r.key, found.events);
    }
  };
  await Promise.all(Array.from({ length: Math.min(READS_AT_ONCE, recent.length) }, worker));
  return out;
}
