import type { UpdateCommandInput } from "@aws-sdk/lib-dynamodb";
import { itemKey } from "./audit-table.ts";

// The order item of one key, as `DynamoMessageOrder` writes it: pure, so that the conditions that
// keep a receiver's messages in order are read and tested without a server.

/** Which receiver keeps the order: its items' partition key prefix (`itemKey.messageOrder`). */
export type OrderReceiver = "slack" | "pager";

/** What an order item says: the last message applied under its key, and who holds the key now. */
export interface OrderState {
  /** The place of the last message applied; undefined when none was. */
  applied?: number;
  /** The hold of the message being applied: its token, and until when it holds (epoch ms). */
  heldBy?: string;
  heldUntil?: number;
}

/** Where an item is, and what a write to it is about. */
interface OrderWrite {
  tableName: string;
  receiver: OrderReceiver;
  key: string;
  /** The item's expiry (epoch s): retention from the write. */
  ttl: number;
}

/**
 * Holds the key for the message at `place` until `until` (epoch ms), with a token only its holder
 * knows: only when no message at or after `place` was applied, and no other hold is still running
 * at `now`. A refusal returns the item as it was (`ALL_OLD`), for `orderStateOf`.
 */
export function holdInput(
  w: OrderWrite,
  hold: { place: number; token: string; until: number; now: number },
): UpdateCommandInput {
  return {
    TableName: w.tableName,
    Key: itemKey.messageOrder(w.receiver, w.key),
    UpdateExpression: "SET heldBy = :token, heldUntil = :until, #key = :key, #ttl = :ttl",
    ConditionExpression:
      "(attribute_not_exists(applied) OR applied < :place) AND (attribute_not_exists(heldUntil) OR heldUntil <= :now)",
    ExpressionAttributeNames: { "#key": "key", "#ttl": "ttl" },
    ExpressionAttributeValues: {
      ":token": hold.token,
      ":until": hold.until,
      ":key": w.key,
      ":ttl": w.ttl,
      ":place": hold.place,
      ":now": hold.now,
    },
    ReturnValuesOnConditionCheckFailure: "ALL_OLD",
  };
}

/**
 * Records the held message as applied and lets go of the key, while `token` still holds it. The
 * hold's own condition already kept `applied` below `place`; it is checked again all the same,
 * since nothing else may ever move it back.
 */
export function appliedInput(
  w: OrderWrite,
  applied: { place: number; token: string; at: string },
): UpdateCommandInput {
  return {
    TableName: w.tableName,
    Key: itemKey.messageOrder(w.receiver, w.key),
    UpdateExpression: "SET applied = :place, appliedAt = :at, #ttl = :ttl REMOVE heldBy, heldUntil",
    ConditionExpression: "heldBy = :token AND (attribute_not_exists(applied) OR applied < :place)",
    ExpressionAttributeNames: { "#ttl": "ttl" },
    ExpressionAttributeValues: {
      ":place": applied.place,
      ":at": applied.at,
      ":ttl": w.ttl,
      ":token": applied.token,
    },
  };
}

/** Lets go of the key without recording anything (the held message was not applied). */
export function releaseInput(w: Omit<OrderWrite, "ttl">, token: string): UpdateCommandInput {
  return {
    TableName: w.tableName,
    Key: itemKey.messageOrder(w.receiver, w.key),
    UpdateExpression: "REMOVE heldBy, heldUntil",
    ConditionExpression: "heldBy = :token",
    ExpressionAttributeValues: { ":token": token },
  };
}

/**
 * An order item as its state, from the DocumentClient's plain item or from the attribute values a
 * refused write returns (`{ N: "…" }`, `{ S: "…" }`); what is not a number or a string reads as
 * absent, never as a place.
 */
export function orderStateOf(item: Record<string, unknown> | undefined): OrderState {
  if (!item) return {};
  const applied = numberOf(item.applied);
  const heldBy = stringOf(item.heldBy);
  const heldUntil = numberOf(item.heldUntil);
  return {
    ...(applied !== undefined ? { applied } : {}),
    ...(heldBy !== undefined ? { heldBy } : {}),
    ...(heldUntil !== undefined ? { heldUntil } : {}),
  };
}

function numberOf(value: unknown): number | undefined {
  const raw = isAttribute(value) ? value.N : value;
  const n = typeof raw === "string" ? Number(raw) : raw;
  return typeof n === "number" && Number.isFinite(n) ? n : undefined;
}

function stringOf(value: unknown): string | undefined {
  const raw = isAttribute(value) ? value.S : value;
  return typeof raw === "string" ? raw : undefined;
}

function isAttribute(value: unknown): value is { N?: unknown; S?: unknown } {
  return typeof value === "object" && value !== null && ("N" in value || "S" in value);
}
