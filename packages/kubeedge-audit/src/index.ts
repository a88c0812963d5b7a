export { applicationsAudit, EDGE_GROUP_BY } from "./edge-audit.ts";
export {
  type ApplicationsAuditEnv,
  ApplicationsAuditEnvSchema,
  EdgeThresholdsEnvSchema,
  thresholdsFrom,
} from "./edge-audit-config.ts";
export { quarantinedFinding, refusedFinding, stuckFinding } from "./edge-finding.ts";
export { edgePresenter } from "./edge-presenter.ts";
export { type KubeedgeAuditOptions, kubeedgeAudit } from "./kubeedge-plugin.ts";
