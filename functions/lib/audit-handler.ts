import type { Logger } from "@aws-lambda-powertools/logger";
import type { Metrics } from "@aws-lambda-powertools/metrics";
import type { RunSummary } from "@fleet-auditor/audit";
import {
  isNotifyTestRequest,
  isShowRequest,
  type NotifyTestResult,
  notifyTest,
  parseNotifyTest,
  parseRunInput,
  parseShowRun,
  type RunView,
  runAudit,
  runDeadline,
  showRun,
} from "@fleet-auditor/use-cases";
import type { AuditFunctionDeps } from "./audit-deps.ts";
import { recordRunMetrics, runLogFields } from "./run-metrics.ts";
import { functionStack } from "./stack.ts";

/**
 * The handler both audit functions share: a schedule (`{audit, scheduledTime}`) or console test
 * event runs one audit and returns its summary; `{ "show": RUN_ID }` returns that run's report;
 * `{ "notifyTest": { "topic"? } }` sends a test message through each topic (or the one named) and
 * returns what each did with it, touching no state.
 */
export function auditHandler(deps: AuditFunctionDeps, logger: Logger, metrics: Metrics) {
  return functionStack<unknown, RunSummary | RunView | NotifyTestResult | null>(logger, metrics).handler(
    async (event, context) => {
      if (isShowRequest(event)) return (await showRun(deps.ports, parseShowRun(event))) ?? null;
      if (isNotifyTestRequest(event))
        return notifyTest(
          {
            publisher: deps.ports.publisher,
            topics: deps.topics,
            ...(deps.settings?.landscape ? { landscape: deps.settings.landscape } : {}),
            log: logger,
          },
          { ...parseNotifyTest(event), sender: "console" },
        );
      const input = parseRunInput(event);
      logger.appendKeys({
        audit: input.audit,
        scheduledTime: input.scheduledTime ?? "none",
        dryRun: input.dryRun ?? false,
      });
      // One deadline for the run, short of the function's timeout: a slow KEB ends the run
      // incomplete (counted toward degraded, metrics flushed) instead of a silent kill.
      const summary = await runAudit(deps, input, runDeadline(context.getRemainingTimeInMillis()));
      logger.info("audit run finished", runLogFields(summary));
      recordRunMetrics(metrics, summary);
      return summary;
    },
  );
}
