import { type RetryOptions, retryDelayMs } from "@fleet-auditor/http";

/**
 * What one attempt came to: a value, or a failure that another attempt may or may not cure;
 * `retryAfter` is the server's `Retry-After` header, when it sent one.
 */
export type Attempted<T, F> =
  | { ok: true; value: T }
  | { ok: false; failure: F; retryable: boolean; retryAfter?: string };

/** The loop's clock and the deadline its waits must end before. */
export interface DeadlineRetryOptions extends RetryOptions {
  /** Epoch ms: no wait is started that would end at or after it. */
  deadline: number;
  clock?: () => number;
}

/**
 * Calls `attempt` until it succeeds, fails for good, runs out of retries, or the next wait would
 * end at or after the deadline; gives back the last outcome, so that the caller words its own
 * error from the last real answer instead of a timeout. The waits are `retryDelayMs` of `@fleet-auditor/http`
 * (exponential backoff with equal jitter, or longer when `Retry-After` asks for it), the policy
 * the KEB client retries with; the attempt bounds itself by the deadline.
 *
 * A loop of its own, not undici's retry interceptor: the requests it serves are POSTs, which that
 * handler would send again to resume a 2xx whose body broke off; here a 2xx counts as delivered,
 * whatever its body does.
 *
 * @example
 * const last = await retryBeforeDeadline(() => postOnce(body), { deadline, maxRetries: 5 });
 * if (!last.ok) throw errorOf(last.failure);
 */
export async function retryBeforeDeadline<T, F>(
  attempt: () => Promise<Attempted<T, F>>,
  options: DeadlineRetryOptions,
): Promise<Attempted<T, F>> {
  const clock = options.clock ?? Date.now;
  for (let retry = 1; ; retry++) {
    const outcome = await attempt();
    if (outcome.ok || !outcome.retryable) return outcome;
    const delay = retryDelayMs(retry, outcome.retryAfter, options);
    if (delay === undefined || clock() + delay >= options.deadline) return outcome;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}
