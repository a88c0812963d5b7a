import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { AuditFunctionEnvSchema } from "@fleet-auditor/keb-audits";
import { parseConfig } from "@fleet-auditor/use-cases";
import { auditDeps } from "./lib/audit-deps.ts";
import { auditHandler } from "./lib/audit-handler.ts";
import { linkedEnv } from "./lib/linked-env.ts";
import { secretsOnFirstRead } from "./lib/secret-reader.ts";
import { AUDIT_SECRETS } from "./lib/secrets.ts";

// Cold start: configuration (fails here, naming the variable), clients and adapters, once. The KEB
// client secret or password is read from Secrets Manager when a token is fetched (cached 5 minutes;
// afresh after the token endpoint refuses it), a proxy with credentials before KEB is asked; that
// client, and the undici agent, are built at their first use, within the first run's deadline
// (their import is most of what a cold start would add).
const env = parseConfig(AuditFunctionEnvSchema, linkedEnv(AUDIT_SECRETS));
const logger = new Logger({ serviceName: "fleet-auditor" });
const metrics = new Metrics({ namespace: "FleetAuditor", serviceName: "audit" });

/**
 * The KEB audits (`failing`, `expired`): a schedule (`{audit, scheduledTime}`) or console test
 * event runs one and returns its summary; `{ "show": RUN_ID }` returns a run's report;
 * `{ "notifyTest": {} }` sends a test message through each topic (`events/notify-test.json`);
 * `{ "report": { "since": "7d" } }` returns the window's incident summary, which the stage's
 * weekly schedule publishes (`events/incidents-summary.json`).
 */
export const handler = auditHandler(auditDeps(env, logger, secretsOnFirstRead()), logger, metrics);
