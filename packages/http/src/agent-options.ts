// The agent's settings apart from the agent: a caller names them (and the body cap) without
// importing the module that loads undici (`retryingAgentOnFirstUse` loads it on first use).

/**
 * Where requests go through a proxy: the `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` variables,
 * parsed where the process starts (packages read no environment).
 */
export interface ProxySettings {
  /** Proxy for `https:` URLs (`HTTPS_PROXY`); `httpProxy` when unset. */
  httpsProxy?: string;
  /** Proxy for `http:` URLs (`HTTP_PROXY`). */
  httpProxy?: string;
  /**
   * Hosts reached directly (`NO_PROXY`): names separated by commas or spaces; `example.com` and
   * `.example.com` also match its subdomains, `*.example.com` only them; `host:port`; `*` for all.
   */
  noProxy?: string;
}

/** Connection limits of the process's HTTP agent. */
export interface HttpAgentOptions {
  /** TCP and TLS connect, ms. Default 10000. */
  connectTimeoutMs?: number;
  /** From sending a request to its response headers, ms. Default 15000 (KEB builds a page of 100 with ~200 DB queries). */
  headersTimeoutMs?: number;
  /** Longest pause between two chunks of a body, ms. Default 15000. */
  bodyTimeoutMs?: number;
  /** Keep-alive sockets per origin. Default 8 (twice the default page concurrency). */
  connections?: number;
  /**
   * Largest response body, bytes: past it the socket is closed and the body fails with
   * `UND_ERR_RES_EXCEEDED_MAX_SIZE`, the rest unread. Default 16 MiB (a page of 100 runtimes
   * with every operation is well under 5 MB).
   */
  maxResponseBytes?: number;
  /** Absent, or with neither proxy set: every request goes directly. */
  proxy?: ProxySettings;
}

/** The page cap when `maxResponseBytes` is not given. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
