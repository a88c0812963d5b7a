import type { Acknowledgement, HistoryCommit, IncidentEvent, IncidentRecord } from "@fleet-auditor/audit";
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
): Array<
  { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Record<string, unknown> } }
> {
  const items = history.writes.flatMap(({ record, event }) => [
    { PutRequest: { Item: recordItem(audit, record, history.expiresAt) } },
    { PutRequest: { Item: eventItem(event, history.expiresAt) } },
  ]);
  if (history.episodes)
    items.push({ PutRequest: { Item: { ...itemKey.episodes(audit), episodes: history.episodes } } });
  const cleared = (history.repaged ?? []).map((key) => ({
    DeleteRequest: { Key: itemKey.incidentPagerResolved(audit, key) },
  }));
  return [...items, ...cleared];
}

/** A record as stored: `endedAt` beside it lets a query leave out incidents that ended earlier. */
function recordItem(audit: string, record: IncidentRecord, ttl: number): Record<string, unknown> {
  // The acknowledgement lives in an item of its own, which only actions write: a record read with
  // it and written back by a run must not keep it after it is taken back.
  const { acknowledged: _ack, pagerResolvedAt: _resolved, ...kept } = record;
  return {
    ...itemKey.incident(audit, record.key),
    record: kept,
    openedAt: record.openedAt,
    ...(record.endedAt ? { endedAt: record.endedAt } : {}),
    ttl,
  };
}

/** An event as stored, sorted by its time and the run (or the action, by `id`) that made it. */
export function eventItem(event: IncidentEvent, ttl: number, id?: string): Record<string, unknown> {
  return { ...itemKey.incidentEvent(event.key, event.at, id ?? event.runId ?? "-"), event, ttl };
}

/**
 * Records by key from the items of an audit's incidents partition: each record with its
 * acknowledgement (its `#ACK` item) when it has one; an acknowledgement without a record is left out.
 */
export function recordsOf(items: readonly Record<string, unknown>[]): Map<string, IncidentRecord> {
  const records = new Map<string, IncidentRecord>();
  const acks = new Map<string, Acknowledgement>();
  const resolved = new Map<string, string>();
  for (const item of items) {
    if (item.record) records.set(String(item.sk), item.record as IncidentRecord);
    else if (item.ack) acks.set(String(item.sk).replace(/#ACK$/, ""), item.ack as Acknowledgement);
    else if (item.pagerResolvedAt)
      resolved.set(String(item.sk).replace(/#PAGER_RESOLVED$/, ""), String(item.pagerResolvedAt));
  }
  for (const [key, ack] of acks) {
    const record = records.get(key);
    if (record) records.set(key, { ...record, acknowledged: ack });
  }
  for (const [key, at] of resolved) {
    const record = records.get(key);
    if (record) records.set(key, { ...record, pagerResolvedAt: at });
  }
  return records;
}
