/**
 * KubeEdge's Application statuses (`pkg/metaserver/constants.go`) in progress order, for
 * messages with the same timestamp: PreApplying < InApplying < InProcessing < Approved = Rejected
 * < Failed < Completed. An unknown status ranks lowest. A Map, not an object: the status is the
 * sender's text, and `constructor` must not reach `Object.prototype`.
 */
const STATUS_RANK: ReadonlyMap<string, number> = new Map([
  ["PreApplying", 1],
  ["InApplying", 2],
  ["InProcessing", 3],
  ["Approved", 4],
  ["Rejected", 4],
  ["Failed", 5],
  ["Completed", 6],
]);

/** The rank of a status; 0 for any status KubeEdge does not define. */
export function statusRank(status: string): number {
  return STATUS_RANK.get(status) ?? 0;
}

/** Statuses after which nothing more happens to this round trip; their rows age out sooner. */
export const FINISHED: ReadonlySet<string> = new Set(["Approved", "Rejected", "Failed", "Completed"]);

/** The order in which messages about one Application supersede each other. */
export interface Precedence {
  /** The beehive header timestamp, ms. */
  timestamp: number;
  rank: number;
  msgId: string;
}

/**
 * Compares two messages about the same Application: newer header timestamp first, then the status
 * rank, then `msg_id` so that the order is total. The table keeps the maximum, so its content does
 * not depend on delivery order or duplicates.
 */
export function comparePrecedence(a: Precedence, b: Precedence): number {
  return a.timestamp - b.timestamp || a.rank - b.rank || (a.msgId < b.msgId ? -1 : a.msgId > b.msgId ? 1 : 0);
}
