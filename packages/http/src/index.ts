// The agent itself (`createHttpAgent`, `RETRY_INTERCEPTORS`) is `@fleet-auditor/http/agent`:
// nothing here imports undici but its types, so importing this evaluates none of it.

/** undici's dispatcher type, so that a package can take the process's agent without importing undici. */
export type { Dispatcher } from "undici";
export type { HttpAgentOptions, ProxySettings } from "./agent-options.ts";
export { DEFAULT_MAX_RESPONSE_BYTES } from "./agent-options.ts";
export { isLoopbackHost } from "./loopback.ts";
export { REDACTED, redact, redirectOrigin, withoutCredentials } from "./redact.ts";
export type { RetryingRequest } from "./retry-interceptor.ts";
export { type RetryOptions, retryAfterMs, retryDelayMs } from "./retry-policy.ts";
export { retryUntil } from "./retry-until.ts";
export { type RetryingAgent, retryingAgentOnFirstUse } from "./retrying-agent.ts";
