/** The dispatcher type of the process's undici agent, for the packages that post through it. */
export type { Dispatcher } from "undici";
export {
  ClientCredentialsTokenProvider,
  type OAuth2Options,
  PasswordTokenProvider,
} from "./auth/oauth2-token-provider.ts";
export { StaticTokenProvider, type TokenProvider } from "./auth/token-provider.ts";
export { isLoopbackHost } from "./base-url.ts";
export { KebClient, type KebClientOptions, type RuntimeSource } from "./client.ts";
export * from "./errors.ts";
export { createHttpAgent, type ProxySettings } from "./http-agent.ts";
export { displayedState, lastOperation } from "./last-operation.ts";
export { type ScanResult, scanRuntimes } from "./pager.ts";
export { filterQuery, type ListParameters, pageQuery, type RuntimeFilters } from "./params.ts";
export { parseRuntimesPage } from "./parse-page.ts";
export { REDACTED, redact, redirectOrigin, withoutCredentials } from "./redact.ts";
export { retryUntil } from "./retry-interceptor.ts";
export { type RetryOptions, retryAfterMs, retryDelayMs } from "./retry-policy.ts";
export { requireComplete, scanAll } from "./scan-all.ts";
export * from "./schemas.ts";
export * from "./states.ts";
export * from "./time.ts";
export { KebTransport } from "./transport.ts";
