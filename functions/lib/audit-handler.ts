import type { Logger } from "@aws-lambda-powertools/logger";
import type { Metrics } from "@aws-lambda-powertools/metrics";
import type { RunSummary } from "@fleet-auditor/audit";
import {
  isShowRequest,
  parseRunInput,
  parseShowRun,
  type RunView,
  runAudit,
  runDeadline,
  showRun,
} from "@fleet-auditor/runner";
import type { AuditFunctionDeps } from "./audit-deps.ts";
import { recordRunMetrics } from "./run-metrics.ts";
import { functionStack } from "./stack.ts";

/**
 * The handler both audit functions share: a schedule (`{audit, scheduledTime}`) or console test
 * event runs one audit and returns its summary; `{ "show": RUN_ID }` returns that run's report.
 */
export function auditHandler(deps: AuditFunctionDeps, logger: Logger, metrics: Metrics) {
  return functionStack<unknown, RunSummary | RunView | null>(logger, metrics).handler(
    async (event, context) => {
      if (isShowRequest(event)) return (await showRun(deps.ports, parseShowRun(event))) ?? null;
      const input = parseRunInput(event);
      logger.appendKeys({
        audit: input.audit,
        scheduledTime: input.scheduledTime ?? "none",
        dryRun: input.dryRun ?? false,
      });
      // One deadline for the run, short of the function's timeout: a slow KEB ends the run
      // incomplete (counted toward degraded, metrics flushed) instead of a silent kill.
      const summary = await runAudit(deps, input, runDeadline(context.getRemainingTimeInMillis()));
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
}
