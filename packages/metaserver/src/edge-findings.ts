import type { QuarantineNote, WatchedRow } from "./ports.ts";

// What the applications audit finds in the rows it watches. Pure: rows and `now` in, findings out.

/** Statuses of an Application still on its way through the cloud. */
const IN_FLIGHT: ReadonlySet<string> = new Set(["PreApplying", "InApplying", "InProcessing"]);

/** Thresholds of the applications audit (`STUCK_AFTER_MINUTES`, `REJECTED_BURST`, `REJECTED_WINDOW_MINUTES`). */
export interface EdgeThresholds {
  /** In flight this long since its latest message: stuck. Default 10. */
  stuckAfterMinutes: number;
  /** A node with at least this many refusals in the window is refusing. Default 5. */
  rejectedBurst: number;
  rejectedWindowMinutes: number;
}

export const DEFAULT_EDGE_THRESHOLDS: EdgeThresholds = {
  stuckAfterMinutes: 10,
  rejectedBurst: 5,
  rejectedWindowMinutes: 15,
};

/** An Application in flight for longer than the threshold since its latest message. */
export interface StuckApplication {
  id: string;
  node: string;
  key: string;
  verb: string;
  resource: string;
  status: string;
  /** Its latest message's time (ISO): stuck since then. */
  since: string;
  firstSeenAt: string;
}

/** One (node, Kubernetes reason, code) of a node whose refusals reached the burst. */
export interface RefusingNode {
  node: string;
  /** The Kubernetes Status reason (`Forbidden`), else the Application's own reason, else "". */
  reason: string;
  /** The Kubernetes Status code (403), or 0 when the refusal carried none. */
  code: number;
  /** Refusals of this reason and code in the window. */
  count: number;
  /** `verb resource` pairs refused, most frequent first: "list services". */
  requests: string[];
  /** A few keys refused, most frequent first. */
  keys: string[];
  firstAt: string;
  lastAt: string;
}

/** In-flight rows whose latest message is older than the threshold, oldest first. */
export function stuckApplications(
  rows: readonly WatchedRow[],
  now: Date,
  t: EdgeThresholds,
): StuckApplication[] {
  const cutoff = now.getTime() - t.stuckAfterMinutes * 60_000;
  return rows
    .filter((r) => IN_FLIGHT.has(r.status) && Date.parse(r.messageTime) < cutoff)
    .sort((a, b) => (a.messageTime < b.messageTime ? -1 : a.messageTime > b.messageTime ? 1 : 0))
    .map((r) => ({
      id: r.id,
      node: r.node,
      key: r.key,
      verb: r.verb,
      resource: r.resource,
      status: r.status,
      since: r.messageTime,
      firstSeenAt: r.firstSeenAt,
    }));
}

/**
 * Nodes with at least `rejectedBurst` Rejected or Failed Applications in the window, one entry
 * per (node, reason, code): "edge-17: 23 × 403 Forbidden on list services" is how an RBAC
 * mistake on a node looks. Busiest first.
 */
export function refusingNodes(rows: readonly WatchedRow[], now: Date, t: EdgeThresholds): RefusingNode[] {
  const since = now.getTime() - t.rejectedWindowMinutes * 60_000;
  const byNode = new Map<string, WatchedRow[]>();
  for (const r of rows) {
    if ((r.status !== "Rejected" && r.status !== "Failed") || Date.parse(r.messageTime) < since) continue;
    byNode.set(r.node, [...(byNode.get(r.node) ?? []), r]);
  }
  const out: RefusingNode[] = [];
  for (const [node, refused] of byNode) {
    if (refused.length < t.rejectedBurst) continue;
    const groups = new Map<string, WatchedRow[]>();
    for (const r of refused) {
      const g = `${r.error?.reason || r.reason}\u0000${r.error?.code ?? 0}`;
      groups.set(g, [...(groups.get(g) ?? []), r]);
    }
    for (const group of groups.values()) {
      const first = group[0] as WatchedRow;
      const times = group.map((r) => r.messageTime).sort();
      out.push({
        node,
        reason: first.error?.reason || first.reason,
        code: first.error?.code ?? 0,
        count: group.length,
        requests: mostFrequent(group.map((r) => `${r.verb} ${r.resource}`)),
        keys: mostFrequent(group.map((r) => r.key)).slice(0, 5),
        firstAt: times[0] as string,
        lastAt: times[times.length - 1] as string,
      });
    }
  }
  return out.sort((a, b) => b.count - a.count || (a.node < b.node ? -1 : a.node > b.node ? 1 : 0));
}

/** Distinct values, most frequent first, ties in first-seen order. */
function mostFrequent(values: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([v]) => v);
}

/**
 * Messages quarantined in the refusal window, counted by code (`MS_NOT_JSON`…), most first.
 * `items` come newest first; the count of a window fuller than what was read is a lower bound.
 */
export function quarantinedByCode(
  items: readonly QuarantineNote[],
  now: Date,
  t: EdgeThresholds,
): Array<{ code: string; count: number }> {
  const since = now.getTime() - t.rejectedWindowMinutes * 60_000;
  const counts = new Map<string, number>();
  for (const item of items) {
    if (Date.parse(item.receivedAt) < since) continue;
    counts.set(item.code, (counts.get(item.code) ?? 0) + 1);
  }
  return [...counts].map(([code, count]) => ({ code, count })).sort((a, b) => b.count - a.count);
}
