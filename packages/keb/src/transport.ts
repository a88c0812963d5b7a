import {
  DEFAULT_MAX_RESPONSE_BYTES,
  type Dispatcher,
  type HttpAgentOptions,
  type RetryingAgent,
  type RetryingRequest,
  type RetryOptions,
  retryingAgentOnFirstUse,
  retryUntil,
} from "@fleet-auditor/http";

// Strips a byte order mark, as undici's `text()` does; invalid sequences become U+FFFD.
const utf8 = new TextDecoder();

/** The agent's limits and proxy (see `HttpAgentOptions`), and how much of an error body is quoted. */
export interface TransportOptions extends HttpAgentOptions {
  /** Largest error body read for the error message, bytes. Default 4096. */
  errorBodyBytes?: number;
  /**
   * The https proxy's URL (with `user:password@`) read where it is kept, in place of
   * `proxy.httpsProxy`: asked before each request (the reader's own cache decides how often the
   * store is), the agent built anew when the value changed, and asked afresh once after the proxy
   * refused a tunnel (407), to retry with a value rotated since.
   */
  httpsProxySource?: (options: { fresh: boolean }) => Promise<string>;
}

/**
 * The agent for one proxy URL and it composed with the retry interceptor, built (and undici
 * loaded) at the route's first request, within that request's deadline, not where the process
 * starts (`retryingAgentOnFirstUse`).
 */
interface Route {
  proxyUrl: string | undefined;
  http: () => Promise<RetryingAgent>;
}

/** One request's method, headers and body. */
export interface TransportRequest {
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
}

/** Per-request limits: the caller's signal, the deadline retries must not wait past, the policy. */
export interface SendOptions {
  signal: AbortSignal;
  /** Epoch ms; a retry that would wait past it is not made and the last answer stands. */
  deadlineAt: number;
  retry?: RetryOptions;
}

/** A response whose headers came: undici's, its body unread. */
export type TransportResponse = Dispatcher.ResponseData;

/**
 * HTTP for KEB and its token endpoint, on the undici package: one agent (`createHttpAgent`:
 * keep-alive, timeouts, body cap, proxy) composed with undici's retry interceptor deciding by
 * this package's deadline-aware policy. Redirects are never followed: a bearer token must not go
 * where a redirect points. Create it once per process and share it.
 */
export class KebTransport {
  /** The largest body a response may have, bytes: a page past it fails. */
  readonly maxResponseBytes: number;
  readonly #options: TransportOptions;
  #route: Route;
  #refreshing: Promise<Route> | undefined;
  readonly #errorBodyBytes: number;

  constructor(options: TransportOptions = {}) {
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.#options = options;
    this.#route = this.#routeFor(undefined);
    this.#errorBodyBytes = options.errorBodyBytes ?? 4096;
  }

  #routeFor(proxyUrl: string | undefined): Route {
    const proxy =
      proxyUrl === undefined ? this.#options.proxy : { ...this.#options.proxy, httpsProxy: proxyUrl };
    return { proxyUrl, http: retryingAgentOnFirstUse({ ...this.#options, ...(proxy ? { proxy } : {}) }) };
  }

  /** The route for the proxy URL read afresh, one read at a time. */
  #refresh(): Promise<Route> {
    this.#refreshing ??= this.#current(true).finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  /** The route for the proxy URL the source gives now; the old agent closes once idle. */
  async #current(fresh: boolean): Promise<Route> {
    const source = this.#options.httpsProxySource;
    if (!source) return this.#route;
    const asked = this.#route;
    const proxyUrl = await source({ fresh });
    // A read that a switch overtook (a cached value read before a fresh one came back) says
    // nothing newer than the switch: switching back would retire the agent just built.
    if (this.#route !== asked) return this.#route;
    if (proxyUrl !== this.#route.proxyUrl) {
      const old = this.#route;
      this.#route = this.#routeFor(proxyUrl);
      // close() lets requests in flight finish; nothing waits on it.
      old
        .http()
        .then(({ agent }) => agent.close())
        .catch(() => undefined);
    }
    return this.#route;
  }

  /**
   * Sends a request, retrying connection failures, a headers timeout and the statuses in
   * `RETRY_STATUSES` as `retry-policy.ts` says, never waiting past `deadlineAt`; resolves with
   * the final response whatever its status. Throws undici's error (its `code` says which:
   * `timeoutPhase` reads the timeouts), or the signal's reason once it aborts.
   */
  async send(url: string, request: TransportRequest, options: SendOptions): Promise<TransportResponse> {
    const target = new URL(url);
    const sent: RetryingRequest = {
      origin: target.origin,
      path: `${target.pathname}${target.search}`,
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: options.signal,
      retryOptions: { retry: retryUntil(options.deadlineAt, options.retry) },
    };
    const route = await this.#current(false);
    try {
      return await (await route.http()).retrying.request(sent);
    } catch (err) {
      // A request beside this one was refused and rotated the proxy's value: the agent this one
      // went out on is closing, and refuses what it had not sent yet. It goes again on the new one.
      if (this.#route !== route && retired(err)) return (await this.#route.http()).retrying.request(sent);
      if (!this.#options.httpsProxySource || !proxyRefused(err)) throw err;
      // Requests refused together read the secret once: a request beside this one may have
      // moved on already, or be reading it now.
      const fresh = this.#route !== route ? this.#route : await this.#refresh();
      if (fresh.proxyUrl === route.proxyUrl) throw err;
      return (await fresh.http()).retrying.request(sent);
    }
  }

  /**
   * The body as text. Throws `tooLarge(maxResponseBytes)` when it passed the agent's cap (the rest
   * was never read), undici's body timeout or connection error otherwise.
   */
  async readText(response: TransportResponse, tooLarge: (limit: number) => Error): Promise<string> {
    return utf8.decode(await this.readBytes(response, tooLarge));
  }

  /** The body as bytes, undecoded; throws as `readText` does. */
  async readBytes(response: TransportResponse, tooLarge: (limit: number) => Error): Promise<Uint8Array> {
    try {
      return await response.body.bytes();
    } catch (err) {
      if (errorCode(err) === "UND_ERR_RES_EXCEEDED_MAX_SIZE") throw tooLarge(this.maxResponseBytes);
      throw err;
    }
  }

  /**
   * The start of an error response's body for the message: KEB's and OAuth2's JSON errors
   * parsed, anything else (a gateway's text or HTML page) as text. Never fails: an unreadable
   * body is "". Not undici's response-error interceptor: it quotes only JSON and text/plain.
   */
  async errorBody(response: TransportResponse): Promise<unknown> {
    const { text, cut } = await prefix(response.body, this.#errorBodyBytes).catch(() => ({
      text: "",
      cut: true,
    }));
    if (cut || !String(response.headers["content-type"] ?? "").includes("json")) return text;
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }

  /** Drops a body unread (a small one is read to keep its socket alive). Never fails. */
  async discard(response: TransportResponse): Promise<void> {
    await response.body.dump().catch(() => undefined);
  }

  /** Closes the agent's sockets; requests after this fail. */
  close(): Promise<void> {
    return this.#route.http().then(({ agent }) => agent.close());
  }
}

/** Which of the agent's timeouts an undici error is, if one is. */
export function timeoutPhase(err: unknown): "connect" | "headers" | "body" | undefined {
  switch (errorCode(err)) {
    case "UND_ERR_CONNECT_TIMEOUT":
      return "connect";
    case "UND_ERR_HEADERS_TIMEOUT":
      return "headers";
    case "UND_ERR_BODY_TIMEOUT":
      return "body";
    default:
      return undefined;
  }
}

/** An error's `code` (`ECONNREFUSED`, `UND_ERR_SOCKET`), if it has one. */
export function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** Up to `cap` bytes of a body; `cut` when there was more, which is then not read. */
async function prefix(body: TransportResponse["body"], cap: number): Promise<{ text: string; cut: boolean }> {
  // Destroying a body part-read makes it emit an abort; with no listener that would crash the process.
  body.on("error", () => undefined);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).byteLength;
    if (size > cap) {
      body.destroy();
      return { text: Buffer.concat(chunks).subarray(0, cap).toString("utf8"), cut: true };
    }
  }
  return { text: Buffer.concat(chunks).toString("utf8"), cut: false };
}

/** Whether undici refused a request because its agent was closed or destroyed. */
function retired(err: unknown): boolean {
  const code = errorCode(err);
  return code === "UND_ERR_CLOSED" || code === "UND_ERR_DESTROYED";
}

/** Whether undici says the proxy refused the tunnel for want of (valid) credentials. */
function proxyRefused(err: unknown): boolean {
  return err instanceof Error && /\(407\)/.test(err.message);
}
