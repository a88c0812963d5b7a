import type * as Undici from "undici";
import api from "undici/lib/api/index.js";
import AgentModule from "undici/lib/dispatcher/agent.js";
import DispatcherModule from "undici/lib/dispatcher/dispatcher.js";
import EnvHttpProxyAgentModule from "undici/lib/dispatcher/env-http-proxy-agent.js";
import retryInterceptor from "undici/lib/interceptor/retry.js";

// The dispatcher half of undici, which is all this product uses: agents, the proxy agent, the
// retry interceptor and `dispatcher.request`. Its index also loads fetch, WebSocket,
// EventSource, the cache, cookies and the mock agent: about 200 KB of a function bundle whose
// bar is 1.5 MB. The modules are undici's own (the version the lockfile pins; it has no exports
// map, so these paths are its layout), typed by the package's declarations. Every HTTP test
// goes through them, so an undici upgrade that moves one fails the tests, not production.

// As undici's index does: `request`, `connect` (the proxy agent's tunnel) and the other verbs on
// every dispatcher.
Object.assign((DispatcherModule as { prototype: object }).prototype, api);

export const Dispatcher = DispatcherModule as typeof Undici.Dispatcher;
export const Agent = AgentModule as typeof Undici.Agent;
export const EnvHttpProxyAgent = EnvHttpProxyAgentModule as typeof Undici.EnvHttpProxyAgent;
export const interceptors = { retry: retryInterceptor as typeof Undici.interceptors.retry };
