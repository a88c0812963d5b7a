import { type RetryOptions, redact, redirectOrigin } from "@fleet-auditor/http";
import type { TokenProvider } from "./auth/token-provider.ts";
import { parseEndpointUrl } from "./base-url.ts";
import { DecodeTurns } from "./decode-turns.ts";
import {
  KebAuthError,
  KebDeadlineError,
  KebError,
  KebHttpError,
  KebSchemaError,
  KebTimeoutError,
} from "./errors.ts";
import { parsePageJson } from "./page-json.ts";
import { type ListParameters, pageQuery } from "./params.ts";
import { parseRuntimesPage } from "./parse-page.ts";
import type { RuntimesPage } from "./schemas.ts";
import { errorCode, type KebTransport, type TransportResponse, timeoutPhase } from "./transport.ts";

/** Anything that can return one page of runtimes: the port the pager and the audits use. */
export interface RuntimeSource {
  listPage(params: ListParameters, options?: ListPageOptions): Promise<RuntimesPage>;
}

/** Per-call options of `listPage`. */
export interface ListPageOptions {
  /**
   * The run's deadline: when it aborts, the request in flight (or the wait before a retry) is
   * aborted and `listPage` throws `KebDeadlineError` (`KEB_DEADLINE`).
   */
  signal?: AbortSignal;
  /**
   * When `signal` will abort, epoch ms, if known: a retry that would wait past it is not made
   * and the last answer stands, rather than a wait that the deadline cuts short.
   */
  deadlineAt?: number;
  /** Called once the body has arrived, before it is decoded: the request is no longer in flight. */
  onResponse?: () => void;
  /**
   * Awaited before a page is asked for again after `onResponse` (its body was not JSON), so
   * that a caller counting requests in flight counts it again.
   */
  onRequestAgain?: () => Promise<void>;
}

/** Settings of a `KebClient`. */
export interface KebClientOptions {
  /** KEB's base URL, e.g. `https://kyma-env-broker.cp.example.com`. */
  baseUrl: string;
  tokenProvider: TokenProvider;
  /** Shared per process; see `KebTransport`. */
  transport: KebTransport;
  /** Overall time for one page, retries included, ms. Default 30000. */
  requestTimeoutMs?: number;
  retry?: RetryOptions;
  /** Extra requests for a page whose body broke off or was not JSON. Default 2. */
  bodyRetries?: number;
}

const EXCERPT_CHARS = 300;
const utf8 = new TextDecoder();

/** Reads `GET /runtimes` pages from KEB: validated, authenticated, retried within a deadline. */
export class KebClient implements RuntimeSource {
  readonly #options: KebClientOptions;
  readonly #endpoint: URL;
  readonly #turns = new DecodeTurns();

  constructor(options: KebClientOptions) {
    this.#options = options;
    this.#endpoint = new URL("runtimes", withSlash(parseEndpointUrl(options.baseUrl, "KEB URL")));
  }

  /** Fetches and validates one page. Throws a `KebError` subclass; see `errors.ts`. */
  async listPage(params: ListParameters, options: ListPageOptions = {}): Promise<RuntimesPage> {
    const url = `${this.#endpoint.href}?${pageQuery(params)}`;
    if (options.signal?.aborted) {
      throw new KebDeadlineError(`GET ${url} was sent`, { cause: options.signal.reason });
    }
    const timeoutMs = this.#options.requestTimeoutMs ?? 30_000;
    const deadline = AbortSignal.timeout(timeoutMs);
    const deadlineAt = Math.min(Date.now() + timeoutMs, options.deadlineAt ?? Number.POSITIVE_INFINITY);
    const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
    let authRetried = false;
    let bodyRetries = this.#options.bodyRetries ?? 2;
    for (;;) {
      // The run's signal alone: the token fetch has its own time limit, and a fetch shared with
      // other pages must not end with this page's.
      const token = await this.#options.tokenProvider.getToken(options.signal).catch((err: unknown) => {
        if (!options.signal?.aborted || err instanceof KebDeadlineError) throw err;
        throw new KebDeadlineError("a token for KEB arrived", { cause: err });
      });
      let bytes: Uint8Array;
      try {
        this.#turns.sending();
        const response = await this.#options.transport.send(
          url,
          { method: "GET", headers: { authorization: `Bearer ${token}`, accept: "application/json" } },
          { signal, deadlineAt, retry: this.#options.retry },
        );
        const status = response.statusCode;
        if (status === 401 && !authRetried && this.#options.tokenProvider.invalidate(token)) {
          await this.#options.transport.discard(response);
          authRetried = true;
          continue;
        }
        if (status >= 300) throw await this.#refusal(response, url, token);
        try {
          // The same page would be as large: the cap is a KEB_SCHEMA error, not asked for again.
          bytes = await this.#options.transport.readBytes(response, (limit) => {
            const problem = `body is over the limit of ${limit} bytes`;
            return new KebSchemaError({ path: "$", problem, page: params.page ?? 1 });
          });
        } catch (err) {
          if (err instanceof KebSchemaError) throw err;
          // Headers arrived but the body broke off; KEB sends no ranges, so ask for the page again.
          if (bodyRetries-- > 0 && !signal.aborted) continue;
          throw err;
        }
      } catch (err) {
        throw this.#describe(err, url, deadline, options.signal, token);
      }
      // KEB is done with this request: its slot is free. The page is decoded in a turn of its
      // own, after the answers that arrived beside it are read (their slots freed) and the
      // requests that took those slots are written, so that the milliseconds of CPU a page of 100
      // takes (decoding, parsing, validating, the caller's classifying) overlap the next requests
      // instead of holding them back.
      options.onResponse?.();
      await this.#turns.next();
      // A run out of time, or a scan that failed meanwhile, would throw the page away: not decoded.
      if (options.signal?.aborted)
        throw this.#describe(options.signal.reason, url, deadline, options.signal, token);
      let body: unknown;
      try {
        body = parsePageJson(bytes);
      } catch (err) {
        if (bodyRetries-- > 0 && !signal.aborted) {
          await options.onRequestAgain?.();
          continue;
        }
        const text = utf8.decode(bytes);
        throw new KebSchemaError({
          path: "$",
          problem: `body is not JSON (${text.length} characters: ${excerpt(text, token)})`,
          page: params.page,
          cause: err,
        });
      }
      return parseRuntimesPage(body, params.page ?? 1);
    }
  }

  /** The error a final answer other than 2xx stands for, with the start of its body. */
  async #refusal(response: TransportResponse, url: string, token: string): Promise<KebError> {
    const status = response.statusCode;
    if (status < 400) {
      // Not followed: a bearer token must not go wherever a redirect points. A login page or
      // a wrong host is a configuration problem, not a body that is "not JSON".
      // Only the origin is quoted: a gateway may echo the request, token and all, into the rest.
      await this.#options.transport.discard(response);
      const location = response.headers.location;
      const where = redact(redirectOrigin(typeof location === "string" ? location : null, url), [token]);
      return new KebHttpError({
        status,
        bodyExcerpt: `redirected to ${where}: is KEB_URL the broker's API?`,
        url,
      });
    }
    const body = bodyText(await this.#options.transport.errorBody(response));
    if (status === 401 || status === 403) {
      const hint = status === 403 ? " (the token needs a runtimeViewer group)" : "";
      return new KebAuthError(`KEB refused the token: HTTP ${status}${hint}: ${excerpt(body, token)}`, {
        status,
      });
    }
    return new KebHttpError({ status, bodyExcerpt: excerpt(body, token), url });
  }

  #describe(
    err: unknown,
    url: string,
    deadline: AbortSignal,
    callerSignal: AbortSignal | undefined,
    token: string,
  ): unknown {
    // The caller's signal is the run's deadline: whatever broke off because of it, that is why.
    if (callerSignal?.aborted) return new KebDeadlineError(`GET ${url} answered`, { cause: err });
    if (err instanceof KebError) return err;
    if (deadline.aborted) return new KebTimeoutError("deadline", url, { cause: err });
    const phase = timeoutPhase(err);
    if (phase) return new KebTimeoutError(phase, url, { cause: err });
    const code = errorCode(err);
    const message = redact(err instanceof Error ? err.message : String(err), [token]);
    return new KebHttpError({
      status: 0,
      bodyExcerpt: "",
      url,
      detail: code ? `${code} (${message})` : message,
      cause: err,
    });
  }
}

function bodyText(body: unknown): string {
  if (typeof body === "string") return body;
  // KEB's JSON errors are {"error": "..."}; show the text, not the wrapper.
  const message = (body as { error?: unknown } | null)?.error;
  return typeof message === "string" ? message : JSON.stringify(body ?? "");
}

/** A body as an error may quote it: the token it was sent and anything shaped like a secret removed, then cut. */
function excerpt(text: string, token: string): string {
  const flat = redact(text, [token]).replace(/\s+/g, " ").trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS)}…` : flat;
}

function withSlash(url: URL): URL {
  return url.pathname.endsWith("/") ? url : new URL(`${url.href}/`);
}
