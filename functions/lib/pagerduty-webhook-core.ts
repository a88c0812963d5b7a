import type { PagerDutyWebhookDeps } from "@fleet-auditor/inbound";
import type { PagerDutyWebhookEnv } from "@fleet-auditor/use-cases";

/**
 * The acknowledgement core the webhook acts through: `actOnIncident` with its dependencies
 * (`functions/lib/incident-action-deps.ts`), built once per cold start from the function's
 * configuration (the audit table, the Incidents and Critical topics).
 *
 * Not in this build yet: until the core is merged, a verified delivery of an acknowledgement
 * fails (502, which PagerDuty retries) rather than pretending to apply it. Everything before the
 * core (size, signature, parse, age, service) is in force.
 */
export function incidentActionsOf(env: PagerDutyWebhookEnv): PagerDutyWebhookDeps["act"] {
  const table = env.AUDIT_TABLE;
  return async (action) => {
    throw new Error(
      `the acknowledgement core is not in this build: ${action.kind} of ${action.key} on ${table} not applied`,
    );
  };
}
