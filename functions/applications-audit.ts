import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { ApplicationsAuditEnvSchema } from "@fleet-auditor/kubeedge-audit";
import { parseConfig } from "@fleet-auditor/use-cases";
import { applicationsAuditDeps } from "./lib/audit-deps.ts";
import { auditHandler } from "./lib/audit-handler.ts";

// Cold start: configuration (fails here, naming the variable), clients and adapters, once. No
// KEB credentials: this function reads the Application status table, not KEB.
const env = parseConfig(ApplicationsAuditEnvSchema, process.env);
const logger = new Logger({ serviceName: "fleet-auditor" });
const metrics = new Metrics({ namespace: "FleetAuditor", serviceName: "applications-audit" });

/**
 * The applications audit: a schedule (`{ "audit": "applications", scheduledTime }`) or console
 * test event runs it and returns its summary; `{ "show": RUN_ID }` returns a run's report;
 * `{ "notifyTest": {} }` sends a test message through each topic.
 */
export const handler = auditHandler(applicationsAuditDeps(env, logger), logger, metrics);
