// The runtime audits: the audit table every audit run keeps its state in, what a run may send,
// how its messages read (from stages.json), and the Audit function that runs the KEB audits.

import { type alarmTo, functionAlarms, reservedConcurrency, watchedFunction } from "./alarms.ts";
import type { Failures } from "./failures.ts";
import { type KebSecrets, readSecret } from "./secrets.ts";
import type { StageSettings } from "./stage-schema.ts";
import { type Topics, topicKeyAccess } from "./topics.ts";

/**
 * Snapshots (one item per flagged runtime per audit), the run ledger and reports, leases, health
 * and silences; deletion-protected, with point-in-time recovery, on a protected stage.
 */
export function auditTable(protectedStage: boolean): sst.aws.Dynamo {
  return new sst.aws.Dynamo("AuditTable", {
    fields: { pk: "string", sk: "string" },
    primaryIndex: { hashKey: "pk", rangeKey: "sk" },
    ttl: "ttl",
    deletionProtection: protectedStage,
    transform: { table: { pointInTimeRecovery: { enabled: protectedStage } } },
  });
}

/** What an audit run sends, KEB's or the applications': its state and its messages. */
export function auditRunAccess(table: sst.aws.Dynamo, t: Topics) {
  return [
    {
      actions: [
        "dynamodb:GetItem",
        "dynamodb:PutItem",
        "dynamodb:DeleteItem",
        "dynamodb:Query",
        "dynamodb:BatchWriteItem",
        // The records of the incidents a run has news of, read before its commit folds them.
        "dynamodb:BatchGetItem",
      ],
      resources: [table.arn],
    },
    { actions: ["sns:Publish"], resources: [t.alerts.arn, t.critical.arn, t.incidents.arn] },
    ...topicKeyAccess(t),
  ];
}

/**
 * The landscape's name in every subject and title (`LANDSCAPE`): stages.json's, else the stage's.
 * Every function that tells of an incident has it: Chatbot threads an incident's messages by it.
 */
export function landscapeOf(settings: StageSettings): string {
  return settings.landscape ?? $app.stage;
}

/**
 * What every audit run's function is told: its table and topics, and how its messages read (the
 * landscape's name, the stage's unless stages.json names one; link templates; groupings;
 * inhibition rules), as the
 * function's variables (docs/configuration.md) name them.
 */
export function auditRunEnvironment(
  table: sst.aws.Dynamo,
  t: Topics,
  settings: StageSettings,
): Record<string, $util.Input<string>> {
  const groupBy = Object.entries(settings.groupBy ?? {}).flatMap(([audit, labels]) =>
    labels ? [[`GROUP_BY_${audit.toUpperCase()}`, labels.join(",")]] : [],
  );
  // JSON in the variable: the function checks it again where it starts (`inhibitRulesEnvSchema`).
  const inhibitRules = Object.entries(settings.inhibitRules ?? {}).flatMap(([audit, rules]) =>
    rules?.length ? [[`INHIBIT_RULES_${audit.toUpperCase()}`, JSON.stringify(rules)]] : [],
  );
  const links = settings.links ?? {};
  return {
    AUDIT_TABLE: table.name,
    ALERT_TOPIC_ARN: t.alerts.arn,
    CRITICAL_TOPIC_ARN: t.critical.arn,
    INCIDENT_TOPIC_ARN: t.incidents.arn,
    LANDSCAPE: landscapeOf(settings),
    // A stage's first scheduled run records today's backlog rather than mail, chat and page it.
    FIRST_RUN: settings.firstRun ?? "baseline",
    ...(settings.incidentRetentionDays
      ? { INCIDENT_RETENTION_DAYS: String(settings.incidentRetentionDays) }
      : {}),
    ...(links.runtime ? { RUNTIME_URL_TEMPLATE: links.runtime } : {}),
    ...(links.runbook ? { RUNBOOK_URL_TEMPLATE: links.runbook } : {}),
    ...(links.report ? { REPORT_URL_TEMPLATE: links.report } : {}),
    ...Object.fromEntries(groupBy),
    ...(settings.routes ? { ROUTES: JSON.stringify(settings.routes) } : {}),
    ...Object.fromEntries(inhibitRules),
  };
}

/** The Audit function: one KEB audit run per invocation (a schedule's or the console's). */
export function auditFunction(deps: {
  table: sst.aws.Dynamo;
  topics: Topics;
  keb: KebSecrets;
  failures: Failures;
  settings: StageSettings;
  alarm: ReturnType<typeof alarmTo>;
}): sst.aws.Function {
  const { table, topics: t, keb, failures } = deps;
  const args = {
    handler: "functions/audit.handler",
    timeout: "5 minutes",
    memory: "512 MB",
    // A run that throws (e.g. DynamoDB unreachable) is redone by the next schedule; the lease and
    // the ledger would absorb retries, but they would only add load on KEB. It goes to Failures.
    retries: 0,
    transform: failures.destination,
    // One run per audit at a time is the lease's job; this caps what a burst of console runs costs.
    ...reservedConcurrency(deps.settings.reservedConcurrency !== false, 4),
    link: keb.link,
    // Exactly what the function sends (test/e2e/iam-contract.test.ts records it).
    permissions: [...auditRunAccess(table, t), ...Object.values(keb.managed).map(readSecret), failures.send],
    environment: {
      ...auditRunEnvironment(table, t, deps.settings),
      // KEB_CLIENT_SECRET_ARN or KEB_PASSWORD_ARN, and HTTPS_PROXY_ARN: where, never what.
      ...Object.fromEntries(Object.entries(keb.managed).map(([variable, s]) => [`${variable}_ARN`, s.arn])),
      // Longer than the function timeout: a crashed run's lease expires before the next schedule.
      LEASE_MINUTES: "6",
    },
  } satisfies sst.aws.FunctionArgs;
  const audit = new sst.aws.Function("Audit", args);
  functionAlarms(deps.alarm, watchedFunction("Audit", audit.name, args, 30));
  // The landscape's name as the functions have it, for `sst shell -- npx fleet-auditor` (LANDSCAPE).
  new sst.Linkable("Landscape", { properties: { name: landscapeOf(deps.settings) } });
  return audit;
}
