/** undici's dispatcher type, so that a package can take the process's agent without importing undici. */
export type { Dispatcher } from "undici";
export {
  createHttpAgent,
  DEFAULT_MAX_RESPONSE_BYTES,
  type HttpAgentOptions,
  type ProxySettings,
} from "./http-agent.ts";
export { isLoopbackHost } from "./loopback.ts";
export { REDACTED, redact, redirectOrigin, withoutCredentials } from "./redact.ts";
export { RETRY_INTERCEPTORS, type RetryingRequest, retryUntil } from "./retry-interceptor.ts";
export { type RetryOptions, retryAfterMs, retryDelayMs } from "./retry-policy.ts";
