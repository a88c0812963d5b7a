/** The dispatcher type of the process's undici agent, for the packages that post through it. */
export type { Dispatcher } from "undici";
export {
  ClientCredentialsTokenProvider,
  type ClientSecretSource,
  type OAuth2Options,
  PasswordTokenProvider,
} from "./auth/oauth2-token-provider.ts";
export { StaticTokenProvider, type TokenProvider } from "./auth/token-provider.ts";
export { isLoopbackHost, parseEndpointUrl } from "./base-url.ts";
export { KebClient, type KebClientOptions, type ListPageOptions, type RuntimeSource } from "./client.ts";
export * from "./errors.ts";
export { createHttpAgent, type HttpAgentOptions, type ProxySettings } from "./http-agent.ts";
export { displayedState, type KindedOperation, lastOperation } from "./last-operation.ts";
export { PageSlots } from "./page-slots.ts";
export { type ScanOptions, type ScanResult, scanRuntimes } from "./pager.ts";
export { filterQuery, type ListParameters, MAX_PAGE_SIZE, pageQuery, type RuntimeFilters } from "./params.ts";
export { parseRuntimesPage } from "./parse-page.ts";
export { REDACTED, redact, redirectOrigin, withoutCredentials } from "./redact.ts";
export { retryUntil } from "./retry-interceptor.ts";
export {
  RETRY_ERROR_CODES,
  RETRY_STATUSES,
  type RetryOptions,
  retryAfterMs,
  retryDelayMs,
} from "./retry-policy.ts";
export { requireComplete, scanAll } from "./scan-all.ts";
export * from "./schemas.ts";
export * from "./states.ts";
export * from "./time.ts";
export {
  KebTransport,
  type SendOptions,
  type TransportOptions,
  type TransportRequest,
  type TransportResponse,
} from "./transport.ts";
