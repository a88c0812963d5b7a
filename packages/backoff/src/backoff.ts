/** How `backoffMs` grows a wait. */
interface BackoffOptions {
  /** The wait before retry 1, in ms, before jitter; each later retry doubles it. */
  baseMs: number;
  /** The longest wait in ms, before jitter. Default: no cap. */
  capMs?: number;
  /**
   * `"equal"` (the default) waits half the exponential wait plus a random part of the other
   * half, so that callers throttled together do not come back together; `"none"` waits all of it.
   */
  jitter?: "equal" | "none";
  /** Random source in [0, 1), injectable for tests. Default `Math.random`. */
  random?: () => number;
}

/**
 * The wait before retry number `retry` (1-based): `baseMs · 2^(retry − 1)`, capped at `capMs`,
 * with equal jitter unless told otherwise. Pure but for `Math.random`: the caller sleeps, so that
 * a caller with a deadline can decide not to.
 *
 * @example
 * // 50-100 ms, then 100-200 ms, then 200-400 ms …
 * await sleep(backoffMs(retry, { baseMs: 100 }));
 */
export function backoffMs(retry: number, options: BackoffOptions): number {
  const exponential = Math.min(options.capMs ?? Number.POSITIVE_INFINITY, options.baseMs * 2 ** (retry - 1));
  if (options.jitter === "none") return exponential;
  const random = options.random ?? Math.random;
  return exponential / 2 + random() * (exponential / 2);
}
