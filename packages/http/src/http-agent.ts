import { Agent, type Dispatcher, EnvHttpProxyAgent } from "undici";
import { LoopbackDirect } from "./loopback-direct.ts";

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

/**
 * The process's undici agent: keep-alive sockets per origin, connect, headers and body timeouts,
 * a cap on any response body, redirects never followed (undici follows none without its redirect
 * interceptor). With a proxy set, requests go through undici's `EnvHttpProxyAgent` (`CONNECT`
 * tunnels for https) with `NO_PROXY` honoured, and a loopback host (localhost, 127.0.0.0/8,
 * ::1) always goes directly, whatever the variables say: a simulator, a test or a local KEB is
 * never sent to a proxy. Create it once per process.
 */
export function createHttpAgent(options: HttpAgentOptions = {}): Dispatcher {
  const limits = {
    connect: { timeout: options.connectTimeoutMs ?? 10_000 },
    headersTimeout: options.headersTimeoutMs ?? 15_000,
    bodyTimeout: options.bodyTimeoutMs ?? 15_000,
    connections: options.connections ?? 8,
    maxResponseSize: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
  };
  const direct = new Agent(limits);
  const { httpProxy = "", httpsProxy = "", noProxy = "" } = options.proxy ?? {};
  if (!httpProxy && !httpsProxy) return direct;
  // Every setting passed, "" for an unset one: the agent would otherwise read the environment.
  const proxied = new EnvHttpProxyAgent({
    ...limits,
    httpProxy,
    httpsProxy: httpsProxy || httpProxy,
    noProxy,
  });
  return new LoopbackDirect(direct, proxied);
}
