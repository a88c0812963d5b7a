// The applications audit's definition alone (pure: no status table, no use cases), for a
// process that only validates or renders it: the Slack function, the infrastructure's stage
// settings.
export { applicationsAudit } from "./edge-audit.ts";
