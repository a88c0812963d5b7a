import {
  AlertingEnvSchema,
  AuditEnvSchema,
  groupByEnvSchema,
  inhibitRulesEnvSchema,
} from "@fleet-auditor/use-cases";
import type { output } from "zod";
import { KEB_AUDITS } from "./keb-audits.ts";
import { KebEnvSchema } from "./keb-connection.ts";

/**
 * Everything the audit function (the KEB audits) reads from its environment: the KEB
 * connection, the audit table and topics, how messages read, `GROUP_BY_FAILING`,
 * `GROUP_BY_EXPIRED`, `INHIBIT_RULES_FAILING` and `INHIBIT_RULES_EXPIRED`.
 */
export const AuditFunctionEnvSchema = KebEnvSchema.and(AuditEnvSchema)
  .and(AlertingEnvSchema)
  .and(groupByEnvSchema(KEB_AUDITS))
  .and(inhibitRulesEnvSchema(KEB_AUDITS));
export type AuditFunctionEnv = output<typeof AuditFunctionEnvSchema>;
