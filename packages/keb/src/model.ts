// The pure part of the KEB client: types, schemas and KEB's rules, with no HTTP. The pure audit
// package imports this subpath so that no HTTP code loads where it must not.
export * from "./errors.ts";
export { displayedState, lastOperation } from "./last-operation.ts";
export type { RuntimeFilters } from "./params.ts";
export { parseRuntimesPage } from "./parse-page.ts";
export * from "./schemas.ts";
export * from "./states.ts";
export * from "./time.ts";
