import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import type { RunSummary } from "@fleet-auditor/audit";
import {
  ApplicationsAuditEnvSchema,
  isShowRequest,
  parseConfig,
  parseRunInput,
  parseShowRun,
  type RunView,
  runAudit,
  showRun,
} from "@fleet-auditor/runner";
import { applicationsAuditDeps } from "./lib/audit-deps.ts";
import { recordRunMetrics } from "./lib/run-metrics.ts";
import { functionStack } from "./lib/stack.ts";

// Cold start: configuration (fails here, naming the variable), clients and adapters, once. No
// KEB credentials: this function reads the Application status table, not KEB.
const env = parseConfig(ApplicationsAuditEnvSchema, process.env);
const logger = new Logger({ serviceName: "fleet-auditor" });
const metrics = new Metrics({ namespace: "FleetAuditor", serviceName: "applications-audit" });
const deps = applicationsAuditDeps(env, logger);

/**
 * Schedule (`{ "audit": "applications", scheduledTime }`) or console test event: one run of the
 * applications audit, returning its summary; or `{ "show": RUN_ID }`: that run's report.
 */
export const handler = functionStack<unknown, RunSummary | RunView | null>(logger, metrics).handler(
  async (event) => {
    if (isShowRequest(event)) return (await showRun(deps, parseShowRun(event))) ?? null;
    const input = parseRunInput(event);
    logger.appendKeys({
      audit: input.audit,
      scheduledTime: input.scheduledTime ?? "none",
      dryRun: input.dryRun ?? false,
    });
    const summary = await runAudit(deps, input);
    logger.info("audit run finished", {
      runId: summary.runId,
      status: summary.status,
      complete: summary.complete,
      transitions: summary.transitions.length,
    });
    recordRunMetrics(metrics, summary);
    return summary;
  },
);
