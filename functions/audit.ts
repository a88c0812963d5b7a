import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { SNSClient } from "@aws-sdk/client-sns";
import type { RunSummary } from "@fleet-auditor/audit";
import { createKebDispatcher } from "@fleet-auditor/keb";
import { SnsAlertPublisher } from "@fleet-auditor/notify";
import {
  AuditFunctionEnvSchema,
  isShowRequest,
  kebClientFrom,
  linksFrom,
  parseConfig,
  parseRunInput,
  parseShowRun,
  policyFrom,
  type RunView,
  runAudit,
  showRun,
} from "@fleet-auditor/runner";
import {
  DynamoAuditStore,
  DynamoReportStore,
  DynamoSilenceStore,
  documentClient,
} from "@fleet-auditor/store";
import { linkedEnv } from "./lib/linked-env.ts";
import { recordRunMetrics } from "./lib/run-metrics.ts";
import { functionStack } from "./lib/stack.ts";

// Cold start: configuration (fails here, naming the variable), clients and adapters, once.
const env = parseConfig(
  AuditFunctionEnvSchema,
  linkedEnv({
    KEB_URL: "KebUrl",
    KEB_TOKEN_URL: "KebTokenUrl",
    KEB_CLIENT_ID: "KebClientId",
    KEB_CLIENT_SECRET: "KebClientSecret",
  }),
);
const logger = new Logger({ serviceName: "fleet-auditor" });
const metrics = new Metrics({ namespace: "FleetAuditor", serviceName: "audit" });
const dispatcher = createKebDispatcher();
const ddb = documentClient();
const deps = {
  source: kebClientFrom(env, dispatcher),
  store: new DynamoAuditStore({ client: ddb, tableName: env.AUDIT_TABLE }),
  silences: new DynamoSilenceStore({ client: ddb, tableName: env.AUDIT_TABLE }),
  publisher: new SnsAlertPublisher({ client: new SNSClient({}), topicArn: env.ALERT_TOPIC_ARN }),
  policy: policyFrom(env),
  concurrency: env.KEB_CONCURRENCY,
  leaseMs: env.LEASE_MINUTES * 60_000,
  ledgerRetentionDays: env.LEDGER_RETENTION_DAYS,
  reports: new DynamoReportStore({ client: ddb, tableName: env.AUDIT_TABLE }),
  reportCommand: (runId: string) => `AUDIT_TABLE=${env.AUDIT_TABLE} fleet-auditor runs show ${runId}`,
  landscape: env.LANDSCAPE,
  links: linksFrom(env),
  collapseAt: env.GROUP_COLLAPSE_AT,
  degradedAfterRuns: env.DEGRADED_AFTER_RUNS,
  log: logger,
};

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
