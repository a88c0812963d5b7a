import type { RetryHandler } from "undici";
import { RETRY_ERROR_CODES, RETRY_STATUSES, type RetryOptions, retryDelayMs } from "./retry-policy.ts";

/**
 * Errors that broke a response off after its headers had come: the retry interceptor's marker
 * adds them (`retry-interceptor.ts`), `retryUntil` never retries them. Its own module, without
 * undici, so that a caller can decide per request without loading undici before its first one.
 */
export const brokenOff = new WeakSet<Error>();

/**
 * The retry handler's decision from this package's policy (`retry-policy.ts`): statuses in
 * `RETRY_STATUSES` and connection errors in `RETRY_ERROR_CODES`, before a response started,
 * after `retryDelayMs`; and no retry at all when that wait would end at or after `deadlineAt`
 * (epoch ms), so that the caller gets the last real answer instead of a timeout. The wait's timer
 * is handed back to undici, which clears it when the request's signal aborts.
 */
export function retryUntil(deadlineAt: number, options?: RetryOptions): RetryHandler.RetryCallback {
  return (err, { state }, callback) => {
    const { statusCode, code, headers } = err as Error & {
      statusCode?: number;
      code?: string;
      headers?: Record<string, string | string[] | undefined>;
    };
    // A status to retry arrives as UND_ERR_REQ_RETRY carrying it; anything else is a failure.
    const retryable =
      code === "UND_ERR_REQ_RETRY"
        ? statusCode !== undefined && RETRY_STATUSES.includes(statusCode)
        : code !== undefined && RETRY_ERROR_CODES.includes(code) && !brokenOff.has(err);
    const delay = retryable ? retryDelayMs(state.counter, headers?.["retry-after"], options) : undefined;
    if (delay === undefined || Date.now() + delay >= deadlineAt) return callback(err);
    return setTimeout(() => callback(null), delay);
  };
}
