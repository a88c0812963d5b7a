// Whether a value's JSON surely fits a byte limit, from its strings' lengths alone: no text is
// built. A run asks this of every finding after its last page (`keepable`), and serialising
// thousands of findings only to learn that each is a few hundred bytes was the largest part of
// a steady run's work after the listing; this bound costs about a fifth of that.

// Deeper than any finding nests; a cycle reaches it too, and is then left to JSON.stringify.
const MAX_DEPTH = 32;

/**
 * True when `JSON.stringify(value)` is surely at most `limit` UTF-8 bytes; false when it may be
 * more, or when the bound does not apply (a `toJSON`, a type JSON does not write as it is,
 * nesting deeper than a finding's): the caller then measures the JSON itself. Never true for a
 * value whose JSON is larger: each UTF-16 unit of a string is counted 6 bytes (`\uXXXX`, the
 * most JSON writes for one), a number 24 characters, a key as a string plus its colon.
 */
export function jsonSurelyWithin(value: unknown, limit: number): boolean {
  return upperBound(value, limit, 0) <= limit;
}

/** An upper bound of the value's JSON bytes, or more than `budget` as soon as it passes it. */
function upperBound(value: unknown, budget: number, depth: number): number {
  switch (typeof value) {
    case "string":
      return 6 * value.length + 2;
    case "number":
      return 24;
    case "boolean":
    case "undefined":
      return 5;
    case "object":
      break;
    default:
      return Number.POSITIVE_INFINITY;
  }
  if (value === null) return 4;
  const proto = Object.getPrototypeOf(value);
  const plain = Array.isArray(value) || proto === Object.prototype || proto === null;
  if (!plain || depth >= MAX_DEPTH) return Number.POSITIVE_INFINITY;
  let n = 2;
  if (Array.isArray(value)) {
    for (const item of value) {
      n += upperBound(item, budget - n, depth + 1) + 1;
      if (n > budget) return n;
    }
    return n;
  }
  for (const key of Object.keys(value)) {
    n += 6 * key.length + 3 + upperBound((value as Record<string, unknown>)[key], budget - n, depth + 1) + 1;
    if (n > budget) return n;
  }
  return n;
}
