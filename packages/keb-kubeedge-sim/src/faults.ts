/** What to do to a matching request instead of (or before) answering normally. */
export type FaultAction =
  /** Answer with this status; `body` as text/plain unless `json` (KEB's `{"error":…}`). */
  | { kind: "status"; status: number; body?: string; json?: boolean; retryAfter?: string; location?: string }
  /**
   * Answer with this status and the request echoed back (its URL, every header with the
   * Authorization header included, and its form body), as careless gateways and debug pages do:
   * at the start, in the middle and after `padding` characters (default 0) of the body, as plain
   * text, inside a JSON error or an HTML page (`location`: an empty body), and always URL-encoded
   * in `Location` and another header. See `echo.ts`.
   */
  | { kind: "echo"; status: number; style: "text" | "json" | "html" | "location"; padding?: number }
  /** Close the socket without answering. */
  | { kind: "reset" }
  /** Send the headers and part of the body, then close the socket. */
  | { kind: "truncate" }
  /** Send the headers and part of the body, then go silent with the socket open. */
  | { kind: "stall" }
  /** Answer 200 with a body that is not JSON (a complete response, just wrong). */
  | { kind: "invalid-json" }
  /** Break one item on the page so that it violates the schema. */
  | { kind: "schema-invalid"; item?: number }
  /** Answer 200 with no rows but the real `totalCount`, as a page read after rows vanished would. */
  | { kind: "empty" }
  /**
   * Serve this page one row early, as KEB does when rows tie on `created_at` (its perf seed has
   * 1,000 per timestamp): the boundary row appears twice and another is never served.
   */
  | { kind: "overlap" }
  /** Answer the real page with `bytes` of padding in an extra field: valid, and far too large. */
  | { kind: "oversized"; bytes: number }
  /** Add latency to this request, ms. */
  | { kind: "delay"; ms: number }
  /** Before answering, change the fleet: delete rows before this page and create new ones. */
  | { kind: "shift"; deleteBefore: number; create: number };

/** A fault for the next `times` requests that match. */
export interface FaultRule {
  action: FaultAction;
  /** Default 1; `Infinity` for every matching request. */
  times?: number;
  /** Only requests for this page of `/runtimes` (default: any page, any path under test). */
  page?: number;
  /** Only this path. Default `/runtimes`. */
  path?: string;
}

/** An ordered list of fault rules; each request takes the first that matches and uses it up. */
export class FaultPlan {
  #rules: Array<Required<Omit<FaultRule, "page">> & { page?: number }> = [];
  /** Latency added to every request, ms. */
  latencyMs = 0;
  /** Requests a rule has been applied to so far: a test can tell its fault was met. */
  taken = 0;

  add(...rules: FaultRule[]): this {
    for (const r of rules) this.#rules.push({ times: 1, path: "/runtimes", ...r });
    return this;
  }
  clear(): void {
    this.#rules = [];
    this.latencyMs = 0;
  }
  /** Rules that still have uses left. */
  get pending(): number {
    return this.#rules.length;
  }
  /** The action for this request, if any, consuming one use of its rule. */
  take(path: string, page: number | undefined): FaultAction | undefined {
    const index = this.#rules.findIndex((r) => r.path === path && (r.page === undefined || r.page === page));
    const rule = this.#rules[index];
    if (!rule) return undefined;
    this.taken++;
    rule.times -= 1;
    if (rule.times <= 0) this.#rules.splice(index, 1);
    return rule.action;
  }
}
