import type { AlertPolicy } from "@fleet-auditor/audit";
import { coerce, object, optional, type output, string } from "zod";
import { KebEnvSchema } from "./keb-connection.ts";

const positiveInt = (fallback: number) => coerce.number().int().positive().default(fallback);

/** An SNS topic ARN, in any partition. */
export const TopicArnSchema = string().regex(
  /^arn:aws[a-z-]*:sns:[^:]+:\d{12}:[\w-]+$/,
  "expected an SNS topic ARN",
);

/** Variables of an audit run besides the KEB connection. */
export const AuditEnvSchema = object({
  AUDIT_TABLE: string().min(3),
  ALERT_TOPIC_ARN: TopicArnSchema,
  FIRE_AFTER_RUNS: positiveInt(1),
  RESOLVE_AFTER_RUNS: positiveInt(1),
  REPEAT_INTERVAL_HOURS: positiveInt(24),
  KEB_CONCURRENCY: positiveInt(4),
  LEDGER_RETENTION_DAYS: positiveInt(30),
  LEASE_MINUTES: positiveInt(15),
  LEDGER_HINT: optional(string()),
});

/** Everything the audit function reads from its environment. */
export const AuditFunctionEnvSchema = KebEnvSchema.and(AuditEnvSchema);
export type AuditFunctionEnv = output<typeof AuditFunctionEnvSchema>;

/** The alert policy the variables describe. */
export function policyFrom(env: output<typeof AuditEnvSchema>): AlertPolicy {
  return {
    fireAfterRuns: env.FIRE_AFTER_RUNS,
    resolveAfterRuns: env.RESOLVE_AFTER_RUNS,
    repeatIntervalMs: env.REPEAT_INTERVAL_HOURS * 3_600_000,
  };
}
