// How Go's encoding/json binds a JSON object's keys to a struct's fields, for the structs KubeEdge
// decodes a message into. Go meets the object's members one by one, finds each one's field by its
// exact name or, failing that, case-insensitively, and decodes the value into that field: so of
// two keys that differ only in case (`ID`, `id`) the LAST one wins, exact or not (golang/go issues
// 11673, 14750, 43664), a `null` leaves a string, a struct or a time as it was, and a second
// object is decoded into the struct the first one filled (merged). Every member is decoded, so a
// value of the wrong type fails the whole decode even when a later key would have been fine.

/** A JSON object's members, in the order Go's decoder meets them. */
export type Members = ReadonlyArray<readonly [string, unknown]>;

/**
 * The order Go meets an object's members in. `document`: as written (Go decoding the bytes
 * themselves). `sorted`: the object went through a Go `map` (beehive's `content` is an
 * `interface{}`, decoded into a map and marshalled again, keys sorted bytewise, before KubeEdge
 * decodes the Application out of it), which keeps the last of exactly repeated keys, as
 * `JSON.parse` does.
 */
export type KeyOrder = "document" | "sorted";

/** The members of a parsed object in Go's order. `JSON.parse` keeps the last of exactly repeated keys. */
export function membersOf(value: Record<string, unknown>, order: KeyOrder): Members {
  const members = Object.entries(value);
  return order === "sorted"
    ? members.sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
    : members;
}

/**
 * A key as Go folds it to match a field case-insensitively (`foldName`): ASCII letters to one
 * case, and each other character to the smallest of its simple case folding, so that the Kelvin
 * sign (U+212A) matches `k` and the long s (U+017F) matches `s`. No other non-ASCII character
 * folds to ASCII, and field names are ASCII, so any other is kept as it is (and matches nothing).
 */
function goFold(key: string): string {
  return key.replace(/[A-Z\u212A\u017F]/g, (c) =>
    c === "\u212A" ? "k" : c === "\u017F" ? "s" : c.toLowerCase(),
  );
}

/**
 * Every value bound to each of `fields`, in the order Go decodes them into it. A key binds to the
 * field of its exact name, else to the one it case-folds to; unknown keys (a v1.12 edge's
 * `Token`) bind to nothing. The caller decodes each value, as Go does (`lastValue`,
 * `structMembers`).
 */
export function bindGoFields<const F extends string>(
  members: Members,
  fields: readonly F[],
): Map<F, unknown[]> {
  const exact = new Set<string>(fields);
  const folded = new Map(fields.map((f) => [goFold(f), f]));
  const bound = new Map<F, unknown[]>();
  for (const [key, value] of members) {
    const field = exact.has(key) ? (key as F) : folded.get(goFold(key));
    if (field === undefined) continue;
    bound.set(field, [...(bound.get(field) ?? []), value]);
  }
  return bound;
}

/**
 * A string, number, boolean or time field after Go decoded every value bound to it: the last
 * one that is not `null` (a `null` leaves such a field as it was), each checked by `check`, which
 * throws for a value Go would refuse.
 */
export function lastValue<T>(
  values: readonly unknown[] | undefined,
  check: (value: unknown) => T,
): T | undefined {
  let out: T | undefined;
  for (const value of values ?? []) if (value !== null) out = check(value);
  return out;
}

/**
 * A struct field after Go decoded every value bound to it into it: the members of every object
 * bound, in turn, as if they were one object (a `null` leaves it as it was); undefined when none
 * was. `refuse` is called for a value that is not an object.
 */
export function structMembers(
  values: readonly unknown[] | undefined,
  order: KeyOrder,
  refuse: (value: unknown) => never,
): Members | undefined {
  let out: Array<readonly [string, unknown]> | undefined;
  for (const value of values ?? []) {
    if (value === null) continue;
    if (!isObject(value)) refuse(value);
    out = [...(out ?? []), ...membersOf(value, order)];
  }
  return out;
}

/** True for a plain JSON object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
