// Several scans as one: `scanAll` shares one concurrency limit among an audit's queries, and
// `requireComplete` turns an incomplete scan into an error for callers that need all of it.

import type { RuntimeSource } from "./client.ts";
import { KebIncompleteError } from "./errors.ts";
import { PageSlots } from "./page-slots.ts";
import { type ScanOptions, type ScanResult, scanRuntimes } from "./pager.ts";
import type { RuntimeFilters } from "./params.ts";
import type { Runtime } from "./schemas.ts";

/** Returns the runtimes of a complete scan; throws `KebIncompleteError` (with the cause) otherwise. */
export function requireComplete(result: ScanResult): Runtime[] {
  if (result.complete) return result.runtimes;
  throw new KebIncompleteError(result.incompleteReason ?? "unknown", { cause: result.error ?? undefined });
}

/**
 * Scans several queries at once under one concurrency limit (page 1 of each first, then the
 * pages each query's last `totalCount` implies in the slots left free, then the rest), e.g. the
 * `failing` audit's `state=failed&state=error` and `state=deprovisionincomplete`.
 */
export async function scanAll(
  source: RuntimeSource,
  queries: readonly RuntimeFilters[],
  options: Omit<ScanOptions, "slots" | "expectedTotal"> = {},
): Promise<ScanResult[]> {
  const slots = new PageSlots(options.concurrency ?? 4);
  // One progress line for all queries: pages done and expected, summed.
  const progress = queries.map(() => [0, 1] as [number, number]);
  const onProgress = options.onProgress;
  return Promise.all(
    queries.map((filters, i) =>
      scanRuntimes(source, filters, {
        ...options,
        slots,
        onProgress: onProgress
          ? (done, total) => {
              progress[i] = [done, total];
              onProgress(
                progress.reduce((n, [d]) => n + d, 0),
                progress.reduce((n, [, t]) => n + t, 0),
              );
            }
          : undefined,
      }),
    ),
  );
}
