// `@fleet-auditor/http/agent`: the half of this package that loads undici when it is imported.
// The package's root leaves it out, so that a process that only sends through
// `retryingAgentOnFirstUse` (the KEB transport) or needs `redact` alone does not evaluate undici
// at its cold start; a process that builds its agent there (the Slack and pager functions)
// imports it from here.

export { createHttpAgent } from "./http-agent.ts";
export { RETRY_INTERCEPTORS } from "./retry-interceptor.ts";
