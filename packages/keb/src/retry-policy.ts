import type { Dispatcher, RetryHandler } from "undici";

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

/** Connection-level errors worth another attempt. */
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
 * Builds undici retry options whose decision function adds equal jitter to the exponential
 * backoff, honours `Retry-After` (seconds or an HTTP date), and gives up at once rather than sleep
 * past `deadlineAt` (epoch ms), so the caller sees the real error instead of a timeout.
 */
export function retryOptionsUntil(deadlineAt: number, options: RetryOptions = {}): RetryHandler.RetryOptions {
  const maxRetries = options.maxRetries ?? 4;
  const base = options.baseDelayMs ?? 250;
  const cap = options.maxDelayMs ?? 8000;
  const random = options.random ?? Math.random;
  const retry: RetryHandler.RetryCallback = (err, { state }, callback) => {
    const { statusCode, code, headers } = err as Error & {
      statusCode?: number;
      code?: string;
      headers?: Record<string, string | string[] | undefined>;
    };
    const retryable =
      statusCode !== undefined && code === "UND_ERR_REQ_RETRY"
        ? RETRY_STATUSES.includes(statusCode)
        : code !== undefined && RETRY_ERROR_CODES.includes(code);
    if (!retryable || state.counter > maxRetries) return callback(err);
    const exponential = Math.min(cap, base * 2 ** (state.counter - 1));
    const jittered = exponential / 2 + random() * (exponential / 2);
    const delay = Math.max(jittered, retryAfterMs(headers?.["retry-after"]) ?? 0);
    if (Date.now() + delay >= deadlineAt) return callback(err);
    return setTimeout(() => callback(null), delay);
  };
  return { retry, maxRetries, methods: ["GET", "POST"] as Dispatcher.HttpMethod[], throwOnError: false };
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
