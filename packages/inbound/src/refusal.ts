// What an inbound endpoint answers a request it will not act on, and why: one list of reasons, each
// with its HTTP status, so that the function's answer, its metric's `reason` dimension and its log
// line say the same thing.

/** Why a request was refused; the metric's `reason` dimension (stable: alarms and dashboards name it). */
export type RefusalReason =
  /** Its body is larger than the endpoint takes: 413, before anything is hashed. */
  | "too-large"
  /** A signature or timestamp header is missing, repeated or malformed, or names another scheme: 401. */
  | "unsigned"
  /** The signature is not the one the secret gives over this body and timestamp: 401. */
  | "bad-signature"
  /** The timestamp is more than the tolerance away from now, either way (a replay, a skewed clock): 401. */
  | "stale"
  /** Not a POST: 405. */
  | "method"
  /** Signed, but not a payload the endpoint acts on (form, JSON, schema, one action): 400. */
  | "malformed"
  /** Signed and well-formed, from another workspace or channel than the one configured: 403. */
  | "forbidden"
  /** Signed and well-formed, naming no open incident: 200 with a word to the one who clicked. */
  | "unknown-incident";

/** Each reason's HTTP status. */
export const REFUSAL_STATUS: Readonly<Record<RefusalReason, number>> = {
  "too-large": 413,
  unsigned: 401,
  "bad-signature": 401,
  stale: 401,
  method: 405,
  malformed: 400,
  forbidden: 403,
  "unknown-incident": 200,
};

/**
 * A refused request: the reason, and a one-line detail for the log. The detail names what was
 * wrong (a header, a field's path), never a value from the request: a signature, a secret or a
 * user's text stays out of the logs.
 */
export interface Refusal {
  refused: RefusalReason;
  detail: string;
}

/** A refusal for `reason`, with its detail. */
export function refuse(reason: RefusalReason, detail: string): Refusal {
  return { refused: reason, detail };
}
