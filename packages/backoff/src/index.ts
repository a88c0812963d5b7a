export { backoffMs } from "./backoff.ts";
