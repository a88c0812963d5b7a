import type { EdgeThresholds } from "@fleet-auditor/metaserver";
import {
  AlertingEnvSchema,
  AuditEnvSchema,
  groupByEnvSchema,
  inhibitRulesEnvSchema,
} from "@fleet-auditor/use-cases";
import { coerce, object, type output, string } from "zod";
import { applicationsAudit } from "./edge-audit.ts";

const positiveInt = (fallback: number) => coerce.number().int().positive().default(fallback);

/** The applications audit's thresholds, for the function and the CLI alike. */
export const EdgeThresholdsEnvSchema = object({
  /** An Application in flight this long since its latest message is stuck. */
  STUCK_AFTER_MINUTES: positiveInt(10),
  /** A node with at least this many Rejected or Failed Applications in the window is refusing. */
  REJECTED_BURST: positiveInt(5),
  REJECTED_WINDOW_MINUTES: positiveInt(15),
});
export type EdgeThresholdsEnv = output<typeof EdgeThresholdsEnvSchema>;

/** The thresholds the variables describe. */
export function thresholdsFrom(env: EdgeThresholdsEnv): EdgeThresholds {
  return {
    stuckAfterMinutes: env.STUCK_AFTER_MINUTES,
    rejectedBurst: env.REJECTED_BURST,
    rejectedWindowMinutes: env.REJECTED_WINDOW_MINUTES,
  };
}

/**
 * Everything the applications audit function reads: the audit table and topics, the status table,
 * thresholds, `GROUP_BY_APPLICATIONS` and `INHIBIT_RULES_APPLICATIONS`.
 */
export const ApplicationsAuditEnvSchema = AuditEnvSchema.and(AlertingEnvSchema)
  .and(groupByEnvSchema([applicationsAudit]))
  .and(inhibitRulesEnvSchema([applicationsAudit]))
  .and(object({ STATUS_TABLE: string().min(3) }))
  .and(EdgeThresholdsEnvSchema);
export type ApplicationsAuditEnv = output<typeof ApplicationsAuditEnvSchema>;
