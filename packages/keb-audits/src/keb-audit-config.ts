import { AlertingEnvSchema, AuditEnvSchema, groupByEnvSchema } from "@fleet-auditor/use-cases";
import type { output } from "zod";
import { KEB_AUDITS } from "./keb-audits.ts";
import { KebEnvSchema } from "./keb-connection.ts";

/**
 * Everything the audit function (the KEB audits) reads from its environment: the KEB
 * connection, the audit table and topics, how messages read, and `GROUP_BY_FAILING`,
 * `GROUP_BY_EXPIRED`.
 */
export const AuditFunctionEnvSchema = KebEnvSchema.and(AuditEnvSchema)
  .and(AlertingEnvSchema)
  .and(groupByEnvSchema(KEB_AUDITS));
export type AuditFunctionEnv = output<typeof AuditFunctionEnvSchema>;
