import type { PagerDutyWebhookDeps } from "@fleet-auditor/inbound";
import type { PagerDutyWebhookEnv, RunLogger } from "@fleet-auditor/use-cases";
import { incidentActor } from "./incident-action-deps.ts";

/**
 * The acknowledgement core the webhook acts through: `actOnIncident` on the audit table and the
 * Incidents and Critical topics (`incident-action-deps.ts`), built once per cold start.
 */
export function incidentActionsOf(env: PagerDutyWebhookEnv, log: RunLogger): PagerDutyWebhookDeps["act"] {
  return incidentActor(
    {
      auditTable: env.AUDIT_TABLE,
      ...(env.INCIDENT_TOPIC_ARN ? { incidentTopicArn: env.INCIDENT_TOPIC_ARN } : {}),
      ...(env.CRITICAL_TOPIC_ARN ? { criticalTopicArn: env.CRITICAL_TOPIC_ARN } : {}),
      ...(env.LANDSCAPE ? { landscape: env.LANDSCAPE } : {}),
      incidentRetentionDays: env.INCIDENT_RETENTION_DAYS,
    },
    log,
  );
}
