// A quarantined message body as the status table keeps it (the sparse `byQuarantineCode` index).

import type { QuarantineItem } from "@fleet-auditor/metaserver";
import { QUARANTINE_PREFIX, STATUS_ATTRIBUTES } from "./status-item.ts";

const A = STATUS_ATTRIBUTES;

/** A quarantined body as its item: keyed by the SQS message id, in the sparse `byQuarantineCode` index. */
export function quarantineToItem(item: QuarantineItem, ttlDays: number): Record<string, unknown> {
  return {
    [A.id]: `${QUARANTINE_PREFIX}${item.sqsMessageId}`,
    qk: "Q",
    ...item,
    [A.ttl]: Math.floor(Date.parse(item.receivedAt) / 1000) + ttlDays * 86_400,
  };
}

/** A quarantine item back from the table; what an item lacks or holds of another type reads as empty. */
export function toQuarantineItem(item: Record<string, unknown>): QuarantineItem {
  const text = (v: unknown): string => (v === undefined || v === null ? "" : String(v));
  const bytes = Number(item.bodyBytes ?? 0);
  return {
    sqsMessageId: text(item.sqsMessageId),
    reason: text(item.reason),
    code: text(item.code),
    body: text(item.body),
    bodyBytes: Number.isFinite(bytes) ? bytes : 0,
    truncated: item.truncated === true,
    receivedAt: text(item.receivedAt),
  };
}
