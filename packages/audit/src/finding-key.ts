import { createHash } from "node:crypto";

// A finding's key is the snapshot item's sort key (DynamoDB: at most 1,024 bytes) and the
// identity the diff, the report and the commit agree on. Parts of a key come from outside (an
// Application ID, a node name, a free-text reason), so they are bounded; cutting alone would let
// two values that differ only past the cut share a key, and a run with two findings under one
// key publishes, then fails its commit (BatchWriteItem refuses duplicate keys), every run.

/** Characters of the hash that stands for what was cut: 96 bits, base64url. */
const HASH_CHARS = 16;

const hashOf = (value: string): string =>
  createHash("sha256").update(value).digest("base64url").slice(0, HASH_CHARS);

/**
 * `value` as a bounded part of a finding key. A value of at most `max` characters and
 * `maxBytes` UTF-8 bytes is itself, so a key that fits never changes across an upgrade; a longer
 * one is its first characters (whole code points), `~` and a hash of the whole value, within
 * both bounds. Two different values never share a part.
 */
export function keyPart(value: string, max: number, maxBytes = max * 3): string {
  if (value.length <= max && Buffer.byteLength(value) <= maxBytes) return value;
  const room = HASH_CHARS + 1;
  let head = "";
  let bytes = 0;
  for (const point of value) {
    const size = Buffer.byteLength(point);
    if (head.length + point.length > max - room || bytes + size > maxBytes - room) break;
    head += point;
    bytes += size;
  }
  return `${head}~${hashOf(value)}`;
}

/** A short, stable digest of a key: how a key that cannot be stored is remembered. */
export function keyDigest(key: string): string {
  return hashOf(key);
}
