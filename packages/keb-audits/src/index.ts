export { type AuditFunctionEnv, AuditFunctionEnvSchema } from "./keb-audit-config.ts";
export type { KebAuditDefinition } from "./keb-audit-definition.ts";
export {
  expiredAudit,
  failingAudit,
  KEB_AUDITS,
  KEB_GROUP_BY,
  narrowedQueries,
} from "./keb-audits.ts";
export { KebEnvSchema, kebClientFrom, kebTransportFrom } from "./keb-connection.ts";
export {
  type FailingOperation,
  KEB_LABELS,
  type KebDetail,
  kebFinding,
  type RuntimeFields,
} from "./keb-finding.ts";
export { type KebAuditsOptions, kebAudits } from "./keb-plugin.ts";
export { kebPresenter } from "./keb-presenter.ts";
export { KebSource } from "./keb-source.ts";
