import { RunDeadlineError } from "./errors.ts";

/**
 * How long before a Lambda timeout an audit run stops reading: the time it keeps to plan, keep its
 * report, publish, commit and write its health. A run killed by the timeout writes none of them,
 * so its failure would go unseen; one that runs out of reading time ends incomplete instead.
 */
export const RUN_DEADLINE_MARGIN_MS = 30_000;

/**
 * The deadline of one run: an `AbortSignal` that fires at the time left minus the margin (never
 * less than half the time left, so a short test timeout still leaves something to read with),
 * and when that is (epoch ms), so that no retry waits past it.
 */
export function runDeadline(
  remainingMs: number,
  marginMs = RUN_DEADLINE_MARGIN_MS,
): { signal: AbortSignal; deadlineAt: number } {
  const ms = Math.max(remainingMs - marginMs, Math.floor(remainingMs / 2));
  return { signal: AbortSignal.timeout(ms), deadlineAt: Date.now() + ms };
}

/** How long before its timeout the queue function stops starting writes. */
export const BATCH_DEADLINE_MARGIN_MS = 5_000;

/**
 * When an SQS batch must stop writing: the time left minus the margin, already aborted when less
 * than the margin is left. Unlike a run's, it keeps no floor: a write started with a second left
 * would be killed mid-flight, and its record is better handed back (partial batch response).
 */
export function batchDeadline(remainingMs: number, marginMs = BATCH_DEADLINE_MARGIN_MS): AbortSignal {
  const ms = remainingMs - marginMs;
  return ms > 0 ? AbortSignal.timeout(ms) : AbortSignal.abort(new DOMException("deadline", "TimeoutError"));
}

/**
 * `work`, unless `signal` aborts first: then a `RunDeadlineError` naming the stage. The work is not
 * cancelled (a DynamoDB read has no abort here); the run stops waiting for it.
 */
export function beforeDeadline<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
  stage: string,
): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(new RunDeadlineError(stage));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new RunDeadlineError(stage));
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}
