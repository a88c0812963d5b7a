import type { RuntimeSource } from "./client.ts";
import { KebConfigError, KebDeadlineError, KebError } from "./errors.ts";
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
  /**
   * The `totalCount` expected (e.g. the previous run's). The pages it implies beyond page 1 are
   * asked for together with page 1, in slots that would otherwise sit idle until page 1 tells the
   * count. Default: the last `totalCount` this process saw for the same query from the same
   * source. A wrong guess costs at most one empty page per idle slot: every page is still checked
   * against page 1's `totalCount`, and a page past it must come back empty.
   */
  expectedTotal?: number;
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
 * Lists all pages of one query with bounded concurrency: page 1 (it tells `totalCount`), with the
 * pages an expected `totalCount` implies in the slots page 1 leaves idle, then the rest. A scan is
 * complete only when it is verifiably so; a failed page, an empty page before `totalCount`, a
 * `totalCount` that changes between pages, a page that holds other than min(page size,
 * totalCount − offset) rows (page 1 included), a page past `totalCount` that holds any, or a
 * runtime seen twice (rows moved under the OFFSET paging, so others were skipped) all make it
 * incomplete, with the runtimes that did arrive still returned. Never throws for those; throws
 * `KebConfigError` for filters KEB would misread.
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
  /** One page, in a slot already `held` (a speculative page) or the next one free. */
  const fetchPage = async (page: number, held?: () => void): Promise<RuntimesPage | undefined> => {
    let release = held ?? (await slots.acquire());
    try {
      if (failure) return undefined;
      if (options.signal?.aborted) throw late(page, options.signal.reason);
      const params = { ...filters, page, pageSize, operationDetail: options.operationDetail ?? "last" };
      return await source.listPage(params, {
        signal,
        onResponse: () => release(),
        // Ahead of the pages waiting for their first request: the request's time limit runs
        // while it waits, and behind every page still to be asked for it would run out.
        onRequestAgain: async () => {
          release = await slots.acquire({ ahead: true });
        },
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

  const firstAnswer = fetchPage(1);
  // Yield once, so that page 1 of every query of a scanAll holds its slot before any speculates.
  await Promise.resolve();
  const maxPages = options.maxPages ?? 2000;
  const early = archive
    ? new Map<number, Promise<RuntimesPage | undefined>>()
    : speculate(
        options.expectedTotal ?? totalsSeen.get(source)?.get(query),
        pageSize,
        maxPages,
        slots,
        fetchPage,
      );
  const first = await firstAnswer;
  const totalCount = first?.totalCount ?? 0;
  const pageCount = Math.ceil(totalCount / pageSize);
  if (first) {
    rememberTotal(source, query, pageCount > 1 ? totalCount : undefined);
    pages = 1;
    keep(1, first.data);
    const owed = Math.min(pageSize, totalCount);
    if (first.data.length === 0 && totalCount > 0) fail(`page 1 was empty but totalCount is ${totalCount}`);
    // A short page 1, or a totalCount below what it holds, would let unseen rows resolve.
    else if (!archive && first.data.length !== owed)
      fail(`page 1 held ${first.data.length} runtimes, expected ${owed}`);
  }
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
  const rest = !failure && lastPage > 1 ? Array.from({ length: lastPage - 1 }, (_, i) => i + 2) : [];
  // A page asked for early that turns out past the last one must be empty and agree on the count.
  const past = (page: number, got: RuntimesPage): void => {
    if (got.totalCount !== totalCount)
      fail(`totalCount changed from ${totalCount} to ${got.totalCount} at page ${page}`);
    else if (got.data.length > 0)
      fail(`page ${page} held ${got.data.length} runtimes past totalCount ${totalCount}`);
  };
  await Promise.all([
    ...rest.map(async (page) => {
      const got = await (early.get(page) ?? fetchPage(page));
      if (!got || failure) return;
      check(page, got);
      keep(page, got.data);
      pages++;
      options.onProgress?.(pages, lastPage);
    }),
    // Every early page is awaited, wanted or not: none is left in flight past the scan.
    ...[...early]
      .filter(([page]) => rest.length === 0 || page > lastPage)
      .map(async ([page, answer]) => {
        const got = await answer;
        if (got && !failure) past(page, got);
      }),
  ]);

  if (capped) fail(capped);
  const duplicates = seen - seenIds.size;
  if (!failure && duplicates > 0) {
    fail(
      `${duplicates} ${duplicates === 1 ? "runtime" : "runtimes"} appeared on two pages: rows moved while paging, so as many may have been skipped`,
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

/**
 * The pages after page 1 that an expected `totalCount` implies, each asked for now in a slot that
 * is free now (none waits for one): they would otherwise sit idle until page 1 tells the count.
 */
function speculate(
  expectedTotal: number | undefined,
  pageSize: number,
  maxPages: number,
  slots: PageSlots,
  fetchPage: (page: number, held: () => void) => Promise<RuntimesPage | undefined>,
): Map<number, Promise<RuntimesPage | undefined>> {
  const early = new Map<number, Promise<RuntimesPage | undefined>>();
  if (expectedTotal === undefined || !(expectedTotal > 0)) return early;
  const expectedPages = Math.min(Math.ceil(expectedTotal / pageSize), maxPages);
  for (let page = 2; page <= expectedPages; page++) {
    const held = slots.tryAcquire();
    if (!held) break;
    early.set(page, fetchPage(page, held));
  }
  return early;
}

// The last totalCount seen per query and source, for the next scan's speculative pages (a warm
// Lambda keeps its client, so a run's guess is the previous run's count). Only queries of more
// than one page are kept, a few per source: a lookup by instance IDs fits on one page.
const totalsSeen = new WeakMap<RuntimeSource, Map<string, number>>();
const TOTALS_KEPT = 16;

function rememberTotal(source: RuntimeSource, query: string, totalCount: number | undefined): void {
  let totals = totalsSeen.get(source);
  if (!totals) {
    if (totalCount === undefined) return;
    totals = new Map();
    totalsSeen.set(source, totals);
  }
  totals.delete(query);
  if (totalCount === undefined) return;
  totals.set(query, totalCount);
  if (totals.size > TOTALS_KEPT) totals.delete(totals.keys().next().value as string);
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
