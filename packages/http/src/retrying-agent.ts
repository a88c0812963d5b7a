import type { Dispatcher } from "undici";
import type { HttpAgentOptions } from "./agent-options.ts";

/** The process's agent (`createHttpAgent`), and the same agent composed with `RETRY_INTERCEPTORS`. */
export interface RetryingAgent {
  /** The agent itself: closing it closes its sockets. */
  agent: Dispatcher;
  /** What requests go through: the agent, undici's retry interceptor deciding by `retryUntil`. */
  retrying: Dispatcher;
}

/**
 * `createHttpAgent(options)` composed with `RETRY_INTERCEPTORS`, built at the first call and the
 * same one at every call after it. undici (its public entry, which evaluates fetch, WebSocket,
 * the caches and the mock agent beside the dispatchers) is loaded then, by a dynamic import, and
 * not where the process starts: a cold start does not pay for it before its first request, and a
 * run that never sends one never does. The caller's deadline covers the load, as it covers the
 * request that waits for it. Create it once per process, as the agent.
 *
 * @example
 * const http = retryingAgentOnFirstUse({ connections: 4 }); // cold start: nothing loaded yet
 * const { retrying } = await http(); // the first request: undici loaded, the agent built
 */
export function retryingAgentOnFirstUse(options: HttpAgentOptions = {}): () => Promise<RetryingAgent> {
  let built: Promise<RetryingAgent> | undefined;
  return () => {
    // `./agent.ts` and what it imports are reached only through this import where the root is
    // used alone: a bundle evaluates them (and undici) here, not at its import.
    built ??= import("./agent.ts").then(({ createHttpAgent, RETRY_INTERCEPTORS }) => {
      const agent = createHttpAgent(options);
      return { agent, retrying: agent.compose(RETRY_INTERCEPTORS) };
    });
    return built;
  };
}
