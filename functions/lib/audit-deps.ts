import { SNSClient } from "@aws-sdk/client-sns";
import { KebTransport } from "@fleet-auditor/keb";
import { snsAlertPublisher } from "@fleet-auditor/notify";
import {
  type AuditFunctionEnv,
  type AuditRunDeps,
  kebClientFrom,
  messagingFrom,
  policyFrom,
  type RunLogger,
} from "@fleet-auditor/runner";
import {
  DynamoAuditStore,
  DynamoReportStore,
  DynamoSilenceStore,
  documentClient,
} from "@fleet-auditor/store";

/**
 * The audit function's adapters and settings, from its parsed environment: called once per cold
 * start, so the SDK clients and the undici transport are built once.
 */
export function auditDeps(
  env: AuditFunctionEnv,
  log: RunLogger,
): AuditRunDeps & { reports: DynamoReportStore } {
  const ddb = documentClient();
  const table = { client: ddb, tableName: env.AUDIT_TABLE };
  const transport = new KebTransport();
  return {
    source: kebClientFrom(env, transport),
    store: new DynamoAuditStore(table),
    silences: new DynamoSilenceStore(table),
    reports: new DynamoReportStore(table),
    publisher: snsAlertPublisher(new SNSClient({}), {
      alerts: env.ALERT_TOPIC_ARN,
      ...(env.CRITICAL_TOPIC_ARN ? { critical: env.CRITICAL_TOPIC_ARN } : {}),
    }),
    policy: policyFrom(env),
    concurrency: env.KEB_CONCURRENCY,
    leaseMs: env.LEASE_MINUTES * 60_000,
    ledgerRetentionDays: env.LEDGER_RETENTION_DAYS,
    reportCommand: (runId) => `AUDIT_TABLE=${env.AUDIT_TABLE} fleet-auditor runs show ${runId}`,
    ...messagingFrom(env),
    maxClockSkewMs: env.MAX_CLOCK_SKEW_HOURS * 3_600_000,
    log,
  };
}
