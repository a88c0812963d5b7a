import { type Application, rejection } from "./application.ts";
import type { ApplicationMessage, MessageKind } from "./message.ts";
import { comparePrecedence, statusRank } from "./status.ts";

/** What identifies an Application and its outcome, in an update and in a table row alike. */
export interface ApplicationIdentity {
  id: string;
  key: string;
  group: string;
  version: string;
  resource: string;
  namespace: string;
  name: string;
  verb: string;
  subresource: string;
  node: string;
  status: string;
  reason: string;
}

/** What one message says about one Application: the write the status table may take. */
export interface StatusUpdate extends ApplicationIdentity {
  errorCode?: number;
  errorReason?: string;
  errorMessage?: string;
  /** Header timestamp of the message, ms. */
  timestamp: number;
  rank: number;
  msgId: string;
  kind: MessageKind;
  /** The Application's own Timestamp (its last close time on the edge), or null. */
  appTimestamp: string | null;
  /** Sizes only: bodies can be large and may hold secrets. */
  sizes: { option: number; reqBody: number; respBody: number };
  /** Every msg_id folded into this update (itself included). */
  msgIds: string[];
}

/** The update one Application of a message asks for. */
export function toUpdate(message: ApplicationMessage, app: Application): StatusUpdate {
  const update: StatusUpdate = {
    id: app.id,
    key: app.key,
    group: app.gvr.group,
    version: app.gvr.version,
    resource: app.gvr.resource,
    namespace: app.namespace,
    name: app.name,
    verb: app.verb,
    subresource: app.subresource,
    node: app.nodename,
    status: app.status,
    reason: app.reason,
    timestamp: message.timestamp,
    rank: statusRank(app.status),
    msgId: message.msgId,
    kind: message.kind,
    appTimestamp: app.timestamp,
    sizes: {
      option: app.option?.length ?? 0,
      reqBody: app.reqBody?.length ?? 0,
      respBody: app.respBody?.length ?? 0,
    },
    msgIds: [message.msgId],
  };
  const rejected = rejection(app);
  if (rejected?.code !== undefined) update.errorCode = rejected.code;
  if (rejected?.reason) update.errorReason = rejected.reason;
  if (rejected?.message) update.errorMessage = rejected.message;
  return update;
}

/** The result of folding a batch's updates per Application ID. */
export interface Coalesced {
  /** One update per ID: the one with the highest precedence, carrying every msg_id seen. */
  updates: StatusUpdate[];
  /** Updates that repeated a msg_id already in the batch. */
  duplicates: number;
  /** Updates superseded inside the batch by a newer one for the same ID. */
  stale: number;
}

/**
 * Folds a batch's updates so that each Application ID is written once: the update with the
 * highest precedence (timestamp, status rank, msg_id) wins; the others are counted as stale, or as
 * duplicates when their msg_id was already seen.
 */
export function coalesce(updates: readonly StatusUpdate[]): Coalesced {
  const byId = new Map<string, { best: StatusUpdate; msgIds: Set<string> }>();
  let duplicates = 0;
  let stale = 0;
  for (const u of updates) {
    const slot = byId.get(u.id);
    if (!slot) {
      byId.set(u.id, { best: u, msgIds: new Set([u.msgId]) });
      continue;
    }
    if (slot.msgIds.has(u.msgId)) {
      duplicates++;
      continue;
    }
    slot.msgIds.add(u.msgId);
    stale++;
    if (comparePrecedence(u, slot.best) > 0) slot.best = u;
  }
  return {
    updates: [...byId.values()].map(({ best, msgIds }) => ({ ...best, msgIds: [...msgIds].sort() })),
    duplicates,
    stale,
  };
}
