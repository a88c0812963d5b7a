import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import type { RunSummary } from "@fleet-auditor/audit";
import {
  AuditFunctionEnvSchema,
  isShowRequest,
  parseConfig,
  parseRunInput,
  parseShowRun,
  type RunView,
  runAudit,
  showRun,
} from "@fleet-auditor/runner";
import { auditDeps } from "./lib/audit-deps.ts";
import { linkedEnv } from "./lib/linked-env.ts";
import { recordRunMetrics } from "./lib/run-metrics.ts";
import { AUDIT_SECRETS } from "./lib/secrets.ts";
import { functionStack } from "./lib/stack.ts";

// Cold start: configuration (fails here, naming the variable), clients and adapters, once.
const env = parseConfig(AuditFunctionEnvSchema, linkedEnv(AUDIT_SECRETS));
const logger = new Logger({ serviceName: "fleet-auditor" });
const metrics = new Metrics({ namespace: "FleetAuditor", serviceName: "audit" });
const deps = auditDeps(env, logger);

/**
 * Schedule (`{audit, scheduledTime}`) or console test event: one audit run, returning its
 * summary; or `{ "show": RUN_ID }`: that run's report, every transition.
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
