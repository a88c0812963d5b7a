import { Agent, type Dispatcher, EnvHttpProxyAgent } from "undici";
import { DEFAULT_MAX_RESPONSE_BYTES, type HttpAgentOptions } from "./agent-options.ts";
import { LoopbackDirect } from "./loopback-direct.ts";

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
