export {
  ClientCredentialsTokenProvider,
  type OAuth2Options,
  PasswordTokenProvider,
} from "./auth/oauth2-token-provider.ts";
export { StaticTokenProvider, type TokenProvider } from "./auth/token-provider.ts";
export { KebClient, type KebClientOptions, type RuntimeSource } from "./client.ts";
export * from "./errors.ts";
export { displayedState, lastOperation } from "./last-operation.ts";
export { parsePageJson } from "./page-json.ts";
export { type ScanResult, scanRuntimes } from "./pager.ts";
export { filterQuery, type ListParameters, pageQuery, type RuntimeFilters } from "./params.ts";
export { parseRuntimesPage } from "./parse-page.ts";
export { requireComplete, scanAll } from "./scan-all.ts";
export * from "./schemas.ts";
export * from "./states.ts";
export * from "./time.ts";
export { KebTransport, type TransportOptions } from "./transport.ts";
