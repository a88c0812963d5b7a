import type { RuntimeSource } from "./client.ts";
import { KebConfigError, KebDeadlineError, KebError, KebIncompleteError } from "./errors.ts";
import { PageSlots } from "./page-slots.ts";
import { filterQuery, MAX_PAGE_SIZE, type RuntimeFilters } from "./params.ts";
import type { Runtime, RuntimesPage } from "./schemas.ts";

/** How a scan pages. */
export interface ScanOptions {
  /** Requests in flight at once. Default 4. Ignored when `slots` is given. */
  concurrency?: number;
  /** Slots shared by several scans, so that together they keep at most N requests in flight. */
  slots?: PageSlots;
  /**
   * Receives each validated page as it arrives (pages may arrive out of order). With `retain:
   * false` this is the only way to see the runtimes: memory stays flat however large the fleet.
   */
  onPage?: (runtimes: Runtime[], page: number) => void;
  /** Keep every runtime for `ScanResult.runtimes`. Default true. */
  retain?: boolean;
  /** Default 100, KEB's maximum. */
  pageSize?: number;
  /** Refuse to page beyond this many pages (runaway guard). Default 2000 (200,000 runtimes). */
  maxPages?: number;
  /** `last` is much cheaper for KEB and enough to classify a runtime. Default `last`. */
  operationDetail?: "last" | "all";
  /**
   * The run's deadline. When it aborts, requests in flight and waits before retries are aborted,
   * no further page is asked for, and the scan ends incomplete with a `KebDeadlineError`
   * (`KEB_DEADLINE`) as its `error`, keeping the runtimes that did arrive: it never throws for it.
   */
  signal?: AbortSignal;
  /** When `signal` will abort, epoch ms, if known: no retry is made that would wait past it. */
  deadlineAt?: number;
  /** Called after each page with pages done and pages expected. */
  onProgress?: (done: number, total: number) => void;
}

/** The outcome of listing every page of one query. */
export interface ScanResult {
  /** The filter part of the query, e.g. `state=failed&state=error`. */
  query: string;
  /** Each runtime once, by `instanceID`, in KEB's order; empty with `retain: false`. */
  runtimes: Runtime[];
  /** Pages fetched successfully. */
  pages: number;
  /** `totalCount` of page 1 (0 when page 1 failed). */
  totalCount: number;
  /** Distinct runtimes listed. */
  listed: number;
  /** True only when every page arrived and the pages add up to `totalCount` with no runtime twice. */
  complete: boolean;
  /** Why the scan cannot be trusted as complete; null when complete. */
  incompleteReason: string | null;
  /** The error that stopped the scan, if one did. */
  error: KebError | null;
}

/**
 * Lists all pages of one query: page 1 first (it tells `totalCount`), then the rest with bounded
 * concurrency. A scan is complete only when it is verifiably so; a failed page, an empty page
 * before `totalCount`, a `totalCount` that changes between pages, a page that holds other than
 * min(page size, totalCount − offset) rows (page 1 included), or a runtime seen twice (rows moved under the OFFSET paging, so others were skipped) all make it incomplete, with
 * the runtimes that did arrive still returned. Never throws for those; throws `KebConfigError`
 * for filters KEB would misread.
 */
export async function scanRuntimes(
  source: RuntimeSource,
  filters: RuntimeFilters,
  options: ScanOptions = {},
): Promise<ScanResult> {
  const query = filterQuery(filters);
  const pageSize = options.pageSize ?? MAX_PAGE_SIZE;
  const archive = filters.states?.includes("deprovisioned") ?? false;
  if (archive && !filters.instanceIDs?.length) {
    throw new KebConfigError(
      "states: deprovisioned reads KEB's archive, whose pages are unordered and cannot be paged reliably; " +
        "pass instance IDs with it",
    );
  }
  const controller = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
  const pagesData: Runtime[][] = [];
  let pages = 0;
  let failure: { reason: string; error: KebError | null } | undefined;
  const fail = (reason: string, error: unknown = null): void => {
    if (failure) return;
    failure = { reason, error: error instanceof KebError ? error : null };
    controller.abort();
  };
  const slots = options.slots ?? new PageSlots(options.concurrency ?? 4);
  const late = (page: number, err: unknown): KebDeadlineError =>
    err instanceof KebDeadlineError
      ? err
      : new KebDeadlineError(`page ${page} arrived`, { cause: options.signal?.reason ?? err });
  const fetchPage = async (page: number): Promise<RuntimesPage | undefined> => {
    const release = await slots.acquire();
    try {
      if (failure) return undefined;
      if (options.signal?.aborted) throw late(page, options.signal.reason);
      const params = { ...filters, page, pageSize, operationDetail: options.operationDetail ?? "last" };
      return await source.listPage(params, {
        signal,
        onResponse: release,
        ...(options.deadlineAt !== undefined ? { deadlineAt: options.deadlineAt } : {}),
      });
    } catch (err) {
      // Whatever broke off once the run's deadline passed broke off because of it.
      const cause = options.signal?.aborted ? late(page, err) : err;
      if (!failure) {
        const why = cause instanceof KebDeadlineError ? `: ${cause.message}` : ` failed: ${errorText(cause)}`;
        fail(`page ${page}${why}`, cause);
      }
      if (cause instanceof KebError || signal.aborted) return undefined;
      throw err;
    } finally {
      release();
    }
  };

  const retain = options.retain ?? true;
  const seenIds = new Set<string>();
  let seen = 0;
  // Kept per page so that the result is in KEB's order although pages arrive out of order.
  const keep = (page: number, data: Runtime[]): void => {
    const fresh: Runtime[] = [];
    for (const runtime of data) {
      seen++;
      if (seenIds.has(runtime.instanceID)) continue;
      seenIds.add(runtime.instanceID);
      fresh.push(runtime);
    }
    if (retain) pagesData[page - 1] = fresh;
    options.onPage?.(fresh, page);
  };

  const first = await fetchPage(1);
  const totalCount = first?.totalCount ?? 0;
  const pageCount = Math.ceil(totalCount / pageSize);
  if (first) {
    pages = 1;
    keep(1, first.data);
    const owed = Math.min(pageSize, totalCount);
    if (first.data.length === 0 && totalCount > 0) fail(`page 1 was empty but totalCount is ${totalCount}`);
    // A short page 1, or a totalCount below what it holds, would let unseen rows resolve.
    else if (!archive && first.data.length !== owed)
      fail(`page 1 held ${first.data.length} runtimes, expected ${owed}`);
  }
  const maxPages = options.maxPages ?? 2000;
  const lastPage = Math.min(pageCount, maxPages);
  // Past the cap the pages up to it are still listed (what they hold may fire), then it is reported.
  const capped = pageCount > maxPages ? `${pageCount} pages exceed the cap of ${maxPages}` : undefined;
  options.onProgress?.(pages, Math.max(1, lastPage));

  const check = (page: number, got: RuntimesPage): void => {
    if (got.totalCount !== totalCount) {
      fail(`totalCount changed from ${totalCount} to ${got.totalCount} at page ${page}`);
    } else if (got.data.length === 0) {
      fail(`page ${page} was empty before totalCount ${totalCount} was reached`);
    } else if (!archive) {
      const expected = page < pageCount ? pageSize : totalCount - (pageCount - 1) * pageSize;
      if (got.data.length !== expected)
        fail(`page ${page} held ${got.data.length} runtimes, expected ${expected}`);
    }
  };
  if (!failure && lastPage > 1) {
    const rest = Array.from({ length: lastPage - 1 }, (_, i) => i + 2);
    await Promise.all(
      rest.map(async (page) => {
        const got = await fetchPage(page);
        if (!got || failure) return;
        check(page, got);
        keep(page, got.data);
        pages++;
        options.onProgress?.(pages, lastPage);
      }),
    );
  }

  if (capped) fail(capped);
  const duplicates = seen - seenIds.size;
  if (!failure && duplicates > 0) {
    fail(
      `${duplicates} runtime(s) appeared on two pages: rows moved while paging, so as many may have been skipped`,
    );
  }
  return {
    query,
    runtimes: retain ? pagesData.flatMap((data) => data ?? []) : [],
    pages,
    totalCount,
    listed: seenIds.size,
    complete: !failure,
    incompleteReason: failure?.reason ?? null,
    error: failure?.error ?? null,
  };
}

/** Returns the runtimes of a complete scan; throws `KebIncompleteError` (with the cause) otherwise. */
export function requireComplete(result: ScanResult): Runtime[] {
  if (result.complete) return result.runtimes;
  throw new KebIncompleteError(result.incompleteReason ?? "unknown", { cause: result.error ?? undefined });
}

/**
 * Scans several queries at once under one concurrency limit (page 1 of each first, then the
 * rest), e.g. the `failing` audit's `state=failed&state=error` and `state=deprovisionincomplete`.
 */
export async function scanAll(
  source: RuntimeSource,
  queries: readonly RuntimeFilters[],
  options: Omit<ScanOptions, "slots"> = {},
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

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
