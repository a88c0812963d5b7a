import { BadQueryError } from "./errors.ts";
import type { Fleet } from "./fleet.ts";
import type { SimInstance } from "./model.ts";
import { instancePredicate, readFilters, readOpDetail, readPaging } from "./query.ts";
import { renderArchived, renderRuntime } from "./render.ts";

/** A response of the `/runtimes` handler: an error body, or a page whose items are already JSON text. */
export type HandlerAnswer =
  | { status: 400 | 500; body: { error: string } }
  | { status: 200; body: { data: string[]; count: number; totalCount: number } };

// About 70 MB of answers at KEB's page size: every page of a 50,000-runtime fleet.
const BYTES_KEPT = 500;

/** Serialises a page answer; items are pre-rendered JSON text. */
export function answerText(answer: HandlerAnswer): string {
  if (answer.status !== 200) return JSON.stringify(answer.body);
  const { data, count, totalCount } = answer.body;
  return `{"data":[${data.join(",")}],"count":${count},"totalCount":${totalCount}}`;
}

/**
 * `GET /runtimes` with KEB's semantics over a simulated fleet. Matching rows are cached per query
 * until the fleet changes, so paging a large fleet costs a slice per page, as KEB's index does.
 */
export class RuntimesHandler {
  readonly #fleet: Fleet;
  #cache = new Map<string, SimInstance[]>();
  // Rendered JSON per instance and op_detail; KEB's own cost is the latency fault, not ours.
  #rendered = { all: new WeakMap<SimInstance, string>(), last: new WeakMap<SimInstance, string>() };
  // Whole answers as bytes, per query string: serving a page again costs the simulator a lookup,
  // so that with several requests in flight its single thread does not queue them behind each
  // other's encoding (real KEB answers them in parallel).
  #bytes = new Map<string, { status: number; body: Buffer }>();
  #cacheVersion = -1;

  constructor(fleet: Fleet) {
    this.#fleet = fleet;
  }

  handle(query: URLSearchParams): HandlerAnswer {
    let paging: { page: number; pageSize: number };
    try {
      paging = readPaging(query);
    } catch (err) {
      if (err instanceof BadQueryError) {
        return { status: 400, body: { error: `while getting query parameters: ${err.message}` } };
      }
      throw err;
    }
    const filter = readFilters(query);
    const opDetail = readOpDetail(query);
    // `__offset_shift` is the simulator's own (the overlap fault): KEB has no such parameter.
    const offset = Math.max(
      0,
      (paging.page - 1) * paging.pageSize + Number(query.get("__offset_shift") ?? 0),
    );
    let matching: SimInstance[];
    try {
      matching = this.#matching(query, filter);
    } catch (err) {
      return { status: 500, body: { error: `while fetching instances: ${(err as Error).message}` } };
    }
    const data = matching.slice(offset, offset + paging.pageSize).map((i) => this.#render(i, opDetail));
    let totalCount = matching.length;
    if (filter.deprovisioned) {
      // The archive is paged separately with the same page and size; counts are summed.
      const archived = this.#fleet.archived.filter((a) => {
        const f = filter;
        return (
          (!f.instanceIDs.length || f.instanceIDs.includes(a.instanceID)) &&
          (!f.accounts.length || f.accounts.includes(a.globalAccountID)) &&
          (!f.subaccounts.length || f.subaccounts.includes(a.subAccountID)) &&
          (!f.plans.length || f.plans.includes(a.servicePlanName)) &&
          (!f.regions.length || f.regions.includes(a.region)) &&
          (!f.runtimeIDs.length || f.runtimeIDs.includes(a.lastRuntimeID)) &&
          (!f.shoots.length || f.shoots.includes(a.shootName))
        );
      });
      data.push(
        ...archived.slice(offset, offset + paging.pageSize).map((a) => JSON.stringify(renderArchived(a))),
      );
      totalCount += archived.length;
    }
    return { status: 200, body: { data, count: data.length, totalCount } };
  }

  /**
   * `handle`'s answer as the bytes of its body, kept per query string (at most `BYTES_KEPT`,
   * oldest dropped first) until the fleet changes.
   */
  bytes(query: URLSearchParams): { status: number; body: Buffer } {
    this.#invalidateOnChange();
    const key = query.toString();
    let kept = this.#bytes.get(key);
    if (!kept) {
      const answer = this.handle(query);
      kept = { status: answer.status, body: Buffer.from(answerText(answer)) };
      // Errors are not kept: a failing query is rare and may mean the fleet is about to change.
      if (answer.status !== 200) return kept;
      this.#bytes.set(key, kept);
      if (this.#bytes.size > BYTES_KEPT) this.#bytes.delete(this.#bytes.keys().next().value as string);
    }
    return kept;
  }

  #render(instance: SimInstance, opDetail: "all" | "last"): string {
    this.#invalidateOnChange();
    let text = this.#rendered[opDetail].get(instance);
    if (text === undefined) {
      text = JSON.stringify(renderRuntime(instance, opDetail));
      this.#rendered[opDetail].set(instance, text);
    }
    return text;
  }

  #invalidateOnChange(): void {
    if (this.#cacheVersion === this.#fleet.version) return;
    this.#cache.clear();
    this.#bytes.clear();
    this.#rendered = { all: new WeakMap(), last: new WeakMap() };
    this.#cacheVersion = this.#fleet.version;
  }

  #matching(query: URLSearchParams, filter: ReturnType<typeof readFilters>): SimInstance[] {
    this.#invalidateOnChange();
    const key = [...query]
      .filter(([k]) => !["page", "page_size", "op_detail", "__offset_shift"].includes(k))
      .sort()
      .join("&");
    let rows = this.#cache.get(key);
    if (!rows) {
      if (filter.deprovisioned) {
        // The live half of the archive branch: rows whose deprovisioning succeeded with deleted_at set.
        const live = instancePredicate({ ...filter, states: ["deprovisioned"], suspended: false });
        rows = this.#fleet.all().filter(live);
      } else {
        rows = this.#fleet.all().filter(instancePredicate(filter));
      }
      this.#cache.set(key, rows);
    }
    return rows;
  }
}
