import { backoffMs } from "@fleet-auditor/backoff";

/** How transient failures are retried before a response body starts. */
export interface RetryOptions {
  /** Retries after the first attempt. Default 4. */
  maxRetries?: number;
  /** First backoff in ms; doubles each retry. Default 250. */
  baseDelayMs?: number;
  /** Longest computed backoff in ms (a server's Retry-After may ask for more). Default 8000. */
  maxDelayMs?: number;
  /** Random source in [0, 1), injectable for tests. */
  random?: () => number;
}

/** Statuses a gateway or KEB sends when a retry can help. 500 is not here: KEB's 500 is usually one bad row. */
export const RETRY_STATUSES = [429, 502, 503, 504];

/** Connection-level error codes worth another attempt: Node's own, and undici's. */
export const RETRY_ERROR_CODES = [
  "ECONNRESET",
  "ECONNREFUSED",
  "EPIPE",
  "ETIMEDOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
];

/**
 * The wait before retry number `retry` (1-based): exponential backoff with equal jitter, or
 * longer when the server's `Retry-After` asks for it. Undefined when no retry is left.
 */
export function retryDelayMs(
  retry: number,
  retryAfter: string | string[] | null | undefined,
  options: RetryOptions = {},
): number | undefined {
  if (retry > (options.maxRetries ?? 4)) return undefined;
  const base = options.baseDelayMs ?? 250;
  const cap = options.maxDelayMs ?? 8000;
  const random = options.random ?? Math.random;
  const backoff = backoffMs(retry, { baseMs: base, capMs: cap, random });
  return Math.max(backoff, retryAfterMs(retryAfter ?? undefined) ?? 0);
}

/** `Retry-After` in ms, from delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
