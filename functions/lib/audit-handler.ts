import type { Logger } from "@aws-lambda-powertools/logger";
import type { Metrics } from "@aws-lambda-powertools/metrics";
import type { RunSummary } from "@fleet-auditor/audit";
import {
  type IncidentSummary,
  type IncidentSummaryDeps,
  incidentSummary,
  isIncidentSummaryRequest,
  isNotifyTestRequest,
  isShowRequest,
  type NotifyTestResult,
  notifyTest,
  parseIncidentSummary,
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
 * returns what each did with it, touching no state; `{ "report": { "since": "7d" } }` returns the
 * window's incident statistics (and with `publish`, the weekly schedule's, sends them to the
 * alerts topic).
 */
export function auditHandler(deps: AuditFunctionDeps, logger: Logger, metrics: Metrics) {
  return functionStack<unknown, AuditAnswer>(logger, metrics).handler(async (event, context) => {
    if (isShowRequest(event)) return (await showRun(deps.ports, parseShowRun(event))) ?? null;
    if (isIncidentSummaryRequest(event))
      return incidentSummary(summaryDeps(deps, logger), parseIncidentSummary(event));
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
  });
}

type AuditAnswer = RunSummary | RunView | NotifyTestResult | IncidentSummary | null;

/** What a summary reads and sends with: the runs' own history, publisher and message settings. */
function summaryDeps(deps: AuditFunctionDeps, logger: Logger): IncidentSummaryDeps {
  const s = deps.settings ?? {};
  return {
    history: deps.ports.history,
    audits: deps.ports.audits,
    publisher: deps.ports.publisher,
    ...(s.incidentRetentionDays ? { retentionDays: s.incidentRetentionDays } : {}),
    ...(s.landscape ? { landscape: s.landscape } : {}),
    ...(s.commandStore ? { commandStore: s.commandStore } : {}),
    log: logger,
  };
}
