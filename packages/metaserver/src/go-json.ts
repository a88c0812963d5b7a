/**
 * Binds a JSON object's keys to Go struct field names the way encoding/json does: an exact match
 * first, then a case-insensitive one; unknown keys are dropped (a v1.12 edge's `Token`, say).
 */
export function bindGoFields<const F extends readonly string[]>(
  input: Record<string, unknown>,
  fields: F,
): Partial<Record<F[number], unknown>> {
  const out: Partial<Record<F[number], unknown>> = {};
  const lower = new Map(fields.map((f) => [f.toLowerCase(), f as F[number]]));
  for (const [key, value] of Object.entries(input)) {
    const exact = (fields as readonly string[]).includes(key) ? (key as F[number]) : undefined;
    const field = exact ?? lower.get(key.toLowerCase());
    // An exact key wins over a case-folded one whichever comes first.
    if (field === undefined || (field in out && !exact)) continue;
    out[field] = value;
  }
  return out;
}

/** True for a plain JSON object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
