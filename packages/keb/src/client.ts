import { type Dispatcher, errors, request } from "undici";
import type { TokenProvider } from "./auth/token-provider.ts";
import { parseEndpointUrl } from "./base-url.ts";
import { KebAuthError, KebError, KebHttpError, KebSchemaError, KebTimeoutError } from "./errors.ts";
import { type ListParameters, pageQuery } from "./params.ts";
import { parseRuntimesPage } from "./parse-page.ts";
import { redact } from "./redact.ts";
import { type RetryOptions, retryOptionsUntil } from "./retry-policy.ts";
import type { RuntimesPage } from "./schemas.ts";

/** Anything that can return one page of runtimes: the port the pager and the audits use. */
export interface RuntimeSource {
  listPage(params: ListParameters, options?: ListPageOptions): Promise<RuntimesPage>;
}

/** Per-call options of `listPage`. */
export interface ListPageOptions {
  signal?: AbortSignal;
  /** Called once the body has arrived and decoded, before validation: the request is no longer in flight. */
  onResponse?: () => void;
}

/** Settings of a `KebClient`. */
export interface KebClientOptions {
  /** KEB's base URL, e.g. `https://kyma-env-broker.cp.example.com`. */
  baseUrl: string;
  tokenProvider: TokenProvider;
  /** Shared per process; see `createKebDispatcher`. */
  dispatcher: Dispatcher;
  /** Overall time for one page, retries included, ms. Default 30000. */
  requestTimeoutMs?: number;
  retry?: RetryOptions;
  /** Extra requests for a page whose body broke off or was not JSON. Default 2. */
  bodyRetries?: number;
  /**
   * A page's body may hold at most this many bytes; past it the page fails (the scan is then
   * incomplete) instead of filling the function's memory. A page of 100 runtimes with every
   * operation is well under 5 MB. Default 16 MiB.
   */
  maxBodyBytes?: number;
}

const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

const EXCERPT_CHARS = 300;

/** Reads `GET /runtimes` pages from KEB: validated, authenticated, retried within a deadline. */
export class KebClient implements RuntimeSource {
  readonly #options: KebClientOptions;
  readonly #endpoint: URL;

  constructor(options: KebClientOptions) {
    this.#options = options;
    this.#endpoint = new URL("runtimes", withSlash(parseEndpointUrl(options.baseUrl, "KEB URL")));
  }

  /** Fetches and validates one page. Throws a `KebError` subclass; see `errors.ts`. */
  async listPage(params: ListParameters, options: ListPageOptions = {}): Promise<RuntimesPage> {
    const url = `${this.#endpoint.href}?${pageQuery(params)}`;
    const timeoutMs = this.#options.requestTimeoutMs ?? 30_000;
    const deadline = AbortSignal.timeout(timeoutMs);
    const deadlineAt = Date.now() + timeoutMs;
    const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
    let authRetried = false;
    let bodyRetries = this.#options.bodyRetries ?? 2;
    for (;;) {
      const token = await this.#options.tokenProvider.getToken(signal);
      let text: string;
      try {
        const response = await request(url, {
          method: "GET",
          headers: { authorization: `Bearer ${token}`, accept: "application/json" },
          dispatcher: this.#options.dispatcher,
          signal,
          retryOptions: retryOptionsUntil(deadlineAt, this.#options.retry),
        } as Parameters<typeof request>[1]);
        if (response.statusCode >= 300 && response.statusCode < 400) {
          // Not followed: a bearer token must not go wherever a redirect points. A login page or
          // a wrong host is a configuration problem, not a body that is "not JSON".
          discard(response.body);
          const location = String(response.headers.location ?? "nowhere");
          throw new KebHttpError({
            status: response.statusCode,
            bodyExcerpt: `redirected to ${redact(location).slice(0, 200)}: is KEB_URL the broker's API?`,
            url,
          });
        }
        try {
          text = await readCapped(
            response,
            this.#options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
            params.page,
          );
        } catch (err) {
          if (err instanceof KebSchemaError) throw err;
          // Headers arrived but the body broke off; KEB sends no ranges, so ask for the page again.
          if (bodyRetries-- > 0 && !signal.aborted) continue;
          throw err;
        }
      } catch (err) {
        if (isStatus(err, 401) && !authRetried && this.#options.tokenProvider.invalidate(token)) {
          authRetried = true;
          continue;
        }
        throw this.#describe(err, url, deadline, options.signal, token);
      }
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch (err) {
        if (bodyRetries-- > 0 && !signal.aborted) continue;
        throw new KebSchemaError({
          path: "$",
          problem: `body is not JSON (${text.length} characters: ${excerpt(text, token)})`,
          page: params.page,
          cause: err,
        });
      }
      options.onResponse?.();
      return parseRuntimesPage(body, params.page ?? 1);
    }
  }

  #describe(
    err: unknown,
    url: string,
    deadline: AbortSignal,
    callerSignal: AbortSignal | undefined,
    token: string,
  ): unknown {
    if (err instanceof KebError) return err;
    if (callerSignal?.aborted && !deadline.aborted) return err;
    if (deadline.aborted) return new KebTimeoutError("deadline", url, { cause: err });
    if (err instanceof errors.ResponseError) {
      const body = bodyText(err.body);
      if (err.statusCode === 401 || err.statusCode === 403) {
        const hint = err.statusCode === 403 ? " (the token needs a runtimeViewer group)" : "";
        return new KebAuthError(
          `KEB refused the token: HTTP ${err.statusCode}${hint}: ${excerpt(body, token)}`,
          {
            status: err.statusCode,
          },
        );
      }
      return new KebHttpError({ status: err.statusCode, bodyExcerpt: excerpt(body, token), url, cause: err });
    }
    if (err instanceof errors.ConnectTimeoutError) return new KebTimeoutError("connect", url, { cause: err });
    if (err instanceof errors.HeadersTimeoutError) return new KebTimeoutError("headers", url, { cause: err });
    if (err instanceof errors.BodyTimeoutError) return new KebTimeoutError("body", url, { cause: err });
    const code = (err as { code?: string }).code;
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

/** The body as text, or a `KebSchemaError` as soon as it passes `cap` bytes (the rest is not read). */
async function readCapped(
  response: Dispatcher.ResponseData<unknown>,
  cap: number,
  page = 1,
): Promise<string> {
  const tooLarge = (bytes: string) =>
    new KebSchemaError({ path: "$", problem: `body of ${bytes} bytes is over the limit of ${cap}`, page });
  const declared = Number(response.headers["content-length"]);
  if (Number.isFinite(declared) && declared > cap) {
    discard(response.body);
    throw tooLarge(String(declared));
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += (chunk as Buffer).length;
    if (size > cap) {
      discard(response.body);
      throw tooLarge(`more than ${cap}`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Drops a body without reading it. Destroying an undici body makes it emit an AbortError; with
 * no listener that is an unhandled error of the process.
 */
function discard(body: Dispatcher.ResponseData<unknown>["body"]): void {
  body.on("error", () => undefined);
  body.destroy();
}

function isStatus(err: unknown, status: number): boolean {
  return err instanceof errors.ResponseError && err.statusCode === status;
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
