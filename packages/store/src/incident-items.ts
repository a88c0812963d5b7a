import type { HistoryCommit, IncidentEvent, IncidentRecord } from "@fleet-auditor/audit";
import { itemKey } from "./audit-table.ts";

// An incident's history in the audit table: its record in its audit's partition (`INCIDENTS#`),
// where `incidents list` reads, with its times beside it for the list's filter; its events in a
// partition of its own (`INCIDENT#<key>`), sorted by time, where `incidents show` reads. All
// expire with the TTL of the run that wrote them last.

/**
 * The items a commit writes for the incidents it tells of: each record and its new event, and the
 * audit's ended episodes when they changed.
 */
export function historyItems(
  audit: string,
  history: HistoryCommit,
): Array<{ PutRequest: { Item: Record<string, unknown> } }> {
  const items = history.writes.flatMap(({ record, event }) => [
    { PutRequest: { Item: recordItem(audit, record, history.expiresAt) } },
    { PutRequest: { Item: eventItem(event, history.expiresAt) } },
  ]);
  if (history.episodes)
    items.push({ PutRequest: { Item: { ...itemKey.episodes(audit), episodes: history.episodes } } });
  return items;
}

/** A record as stored: `endedAt` beside it lets a query leave out incidents that ended earlier. */
function recordItem(audit: string, record: IncidentRecord, ttl: number): Record<string, unknown> {
  return {
    ...itemKey.incident(audit, record.key),
    record,
    openedAt: record.openedAt,
    ...(record.endedAt ? { endedAt: record.endedAt } : {}),
    ttl,
  };
}

/** An event as stored, sorted by its time and the run (or acknowledgement) that made it. */
function eventItem(event: IncidentEvent, ttl: number): Record<string, unknown> {
  return { ...itemKey.incidentEvent(event.key, event.at, event.runId ?? "ack"), event, ttl };
}
