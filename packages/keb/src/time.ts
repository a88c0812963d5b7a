/**
 * KEB marshals Go `time.Time` as RFC 3339 with 0-9 fraction digits and `Z` or a numeric offset.
 * `Date.parse` keeps only milliseconds, so comparisons here keep the full fraction.
 */
export const KEB_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/** Go's zero `time.Time`, which KEB emits for unset times on archived rows. */
export const ZERO_TIME = "0001-01-01T00:00:00Z";

/** True for Go's zero time, whatever its offset or fraction spelling. */
export function isZeroTime(value: string): boolean {
  return value === ZERO_TIME || epochNanos(value) === epochNanos(ZERO_TIME);
}

/** Nanoseconds since the Unix epoch; exact for every valid KEB time. Throws on an invalid one. */
export function epochNanos(value: string): bigint {
  const m = KEB_TIME.exec(value);
  if (!m) throw new RangeError(`not an RFC 3339 time: ${JSON.stringify(value)}`);
  const [, y, mo, d, h, mi, s, frac = "", zone] = m;
  const utcMs = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  // Date.UTC maps years 0-99 to 1900-1999; Go's zero time is year 1.
  const fixedMs = Number(y) < 100 ? new Date(utcMs).setUTCFullYear(Number(y)) : utcMs;
  let offsetMin = 0;
  if (zone && zone !== "Z") {
    const sign = zone.startsWith("-") ? -1 : 1;
    offsetMin = sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  }
  const nanosFraction = BigInt(frac.padEnd(9, "0"));
  return (BigInt(fixedMs) - BigInt(offsetMin) * 60_000n) * 1_000_000n + nanosFraction;
}

/** Orders two KEB times: negative when `a` is earlier, 0 when equal, positive when later. */
export function compareTimes(a: string, b: string): number {
  const d = epochNanos(a) - epochNanos(b);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/** Milliseconds since the epoch (the fraction below a millisecond is dropped). */
export function epochMillis(value: string): number {
  return Number(epochNanos(value) / 1_000_000n);
}
