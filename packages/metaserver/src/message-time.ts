import { MetaserverParseError } from "./errors.ts";

// A beehive header time is an int64 of milliseconds that the sender's clock wrote: nothing bounds
// it. Pure: the instant it is compared with is passed in.

/**
 * How far a message's header time may lie after the time SQS received it: 5 minutes, the clock
 * skew SigV4 and Kerberos tolerate. An edge node's clock can run a little ahead; further than
 * this, the time is not a clock's (`9000000000000000`) and would win every later merge for the
 * Application, so the message is quarantined. Any time in the past is accepted: a backlog
 * replayed after an outage is real data.
 */
export const MAX_FUTURE_SKEW_MS = 5 * 60_000;

/** 9999-12-31T23:59:59.999Z and 0000-01-01T00:00:00.000Z: the instants ISO 8601 writes with four digits. */
const LATEST = 253_402_300_799_999;
const EARLIEST = -62_167_219_200_000;

/**
 * An instant in ms as ISO 8601, for any value: never throws (`Date#toISOString` does, "Invalid time
 * value", past ±8.64e15 ms). A time outside the four-digit years is clamped to the nearest one of
 * them, so that it still parses, sorts as text among other times, and reads as absurd; a value
 * that is no number at all reads as the earliest.
 *
 * @example isoTime(9_000_000_000_000_000) // "9999-12-31T23:59:59.999Z"
 */
export function isoTime(ms: unknown): string {
  const n =
    typeof ms === "number" ? ms : typeof ms === "bigint" || typeof ms === "string" ? Number(ms) : Number.NaN;
  if (Number.isNaN(n)) return new Date(EARLIEST).toISOString();
  return new Date(Math.min(LATEST, Math.max(EARLIEST, Math.trunc(n)))).toISOString();
}

/**
 * Throws `MetaserverParseError` `MS_FUTURE_TIMESTAMP` (a quarantine reason) when `timestamp` lies
 * more than `maxSkewMs` after `receivedAt`, the time SQS received the message.
 */
export function refuseFutureTime(
  timestamp: number,
  receivedAt: number,
  maxSkewMs: number = MAX_FUTURE_SKEW_MS,
): void {
  const ahead = timestamp - receivedAt;
  if (!(ahead > maxSkewMs)) return;
  const when = timestamp > LATEST ? "past the year 9999" : isoTime(timestamp);
  throw new MetaserverParseError(
    "MS_FUTURE_TIMESTAMP",
    `header.timestamp ${timestamp} (${when}) is ${Math.round(ahead / 60_000)} minute(s) after SQS received the message (${isoTime(receivedAt)}); at most ${maxSkewMs / 60_000} minute(s) of clock skew are accepted`,
  );
}
