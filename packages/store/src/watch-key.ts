// The `byWatch` index key: which rows an audit watches, and on which shard. Pure.

import type { WatchSet } from "@fleet-auditor/metaserver";

/**
 * Shards of each watched set. DynamoDB gives an index partition about 1,000 writes a second and
 * cannot split one whose sort key (`ts`) only grows; 32 shards hold about 16,000 watched writes a
 * second (see docs/capacity.md). Readers query every shard, so writers and readers
 * must agree: changing it moves rows between keys (`fleet-auditor apps reindex` moves them).
 */
export const WATCH_SHARDS = 32;

const REFUSED: ReadonlySet<string> = new Set(["Rejected", "Failed"]);
const DONE: ReadonlySet<string> = new Set(["Approved", "Completed"]);

/**
 * The attributes `byWatch` projects besides its keys (`id`, `wk`, `ts`): what the applications
 * audit reads of a row. Readers that need a whole row (`apps status --status`) read it by `id`.
 */
export const WATCH_PROJECTION = [
  "key",
  "grp",
  "ver",
  "res",
  "ns",
  "name",
  "verb",
  "subresource",
  "node",
  "status",
  "reason",
  "errorCode",
  "errorReason",
  "errorMessage",
  "firstSeenAt",
  "ttl",
] as const;

/** The set a status belongs to: refused for Rejected and Failed, none for done or empty, else open. */
export function watchSetOf(status: string): WatchSet | undefined {
  if (status === "" || DONE.has(status)) return undefined;
  return REFUSED.has(status) ? "refused" : "open";
}

/**
 * The row's `byWatch` key, or undefined when no audit watches it (Approved, Completed, no
 * status): those rows carry no key and cost the index nothing. The shard comes from the
 * Application ID, so a row keeps its shard across updates.
 */
export function watchKey(status: string, id: string): string | undefined {
  const set = watchSetOf(status);
  return set && `${set}#${shardOf(id)}`;
}

/** Every key of a set, one per shard: what a reader queries. */
export function watchKeys(set: WatchSet): string[] {
  return Array.from({ length: WATCH_SHARDS }, (_, n) => `${set}#${n}`);
}

/** FNV-1a over the ID's UTF-16 code units: stable, cheap, and even for hashes and UUIDs alike. */
function shardOf(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % WATCH_SHARDS;
}
