// What a person's action reaches the auditor through (a Slack button, a PagerDuty webhook): a
// Lambda function URL of its own that anyone may call (auth type NONE, because neither Slack nor
// PagerDuty can sign with SigV4), whose sender's signature, made with a secret the operator sets
// in Secrets Manager, is verified before anything is parsed. Every such endpoint shares the same
// shape: the secret, the grants of the incident actions core, a bounded concurrency, the
// function's alarms and one on the requests it refuses. The IAM contract test holds the grants to
// what the core does.

import { type alarmTo, functionAlarms, reservedConcurrency, watchedFunction } from "./alarms.ts";
import { managedSecret, readSecret } from "./secrets.ts";

/** What every inbound function of a stage is wired to. */
export interface InboundDeps {
  auditTable: sst.aws.Dynamo;
  /** The landscape's name, as the audit functions have it (`landscapeOf`): the incident's thread is named by it. */
  landscape: string;
  /** The stage's `incidentRetentionDays`, when it sets one: how long what actions write is kept. */
  incidentRetentionDays?: number | undefined;
  incidents: sst.aws.SnsTopic;
  critical: sst.aws.SnsTopic;
  protectedStage: boolean;
  /** The stage's `reservedConcurrency` (default true). */
  reserveConcurrency: boolean;
  alarm: ReturnType<typeof alarmTo>;
}

/** One inbound function: what differs between a Slack button and a PagerDuty webhook. */
export interface InboundSpec {
  /** The function's name (`SlackActions`), its alarms' prefix. */
  name: string;
  handler: string;
  /** Its signing secret: the name in Secrets Manager, what it is, and the variable of its ARN. */
  secret: { name: string; description: string; variable: string };
  /** DynamoDB actions on the audit table, as the incident actions core needs them for this sender. */
  tableActions: string[];
  /** Concurrent executions reserved (unless the stage says not to). */
  concurrency: number;
  /** How long before its timeout it cuts itself short, in seconds (`watchedFunction`). */
  cutsShortSeconds: number;
  /** The sender's own settings (workspace, channel, service). */
  environment: Record<string, string>;
  /** The alarm on requests refused (a bad signature, a replay, another sender's). */
  refused: {
    name: string;
    description: string;
    runbook: string;
    metricName: string;
    service: string;
  };
}

/** The inbound function behind its URL; returns the URL and the secret for the stage's outputs. */
export function inboundFunction(
  spec: InboundSpec,
  deps: InboundDeps,
): { url: $util.Output<string>; secret: aws.secretsmanager.Secret } {
  const secret = managedSecret(spec.secret.name, spec.secret.description, deps.protectedStage);
  const args = {
    handler: spec.handler,
    // Slack wants an answer within 3 seconds, PagerDuty within 5: the core's writes take well under.
    timeout: "10 seconds",
    memory: "256 MB",
    // No CORS: the sender's servers call it, never a browser. Anyone may reach it: a public URL
    // bounded in concurrency, so that a flood of forged requests is throttled (429) instead of
    // spending the account's concurrency.
    url: { authorization: "none", cors: false },
    ...reservedConcurrency(deps.reserveConcurrency, spec.concurrency),
    permissions: [
      readSecret(secret),
      { actions: spec.tableActions, resources: [deps.auditTable.arn] },
      // What it did is told in the incident's thread (Incidents) and to the pager (Critical).
      { actions: ["sns:Publish"], resources: [deps.incidents.arn, deps.critical.arn] },
    ],
    environment: {
      [spec.secret.variable]: secret.arn,
      ...spec.environment,
      AUDIT_TABLE: deps.auditTable.name,
      INCIDENT_TOPIC_ARN: deps.incidents.arn,
      CRITICAL_TOPIC_ARN: deps.critical.arn,
      LANDSCAPE: deps.landscape,
      ...(deps.incidentRetentionDays ? { INCIDENT_RETENTION_DAYS: String(deps.incidentRetentionDays) } : {}),
    },
  } satisfies sst.aws.FunctionArgs;
  const fn = new sst.aws.Function(spec.name, args);
  functionAlarms(deps.alarm, watchedFunction(spec.name, fn.name, args, spec.cutsShortSeconds));
  // Any refused request: someone is knocking, or the stage's secret or settings are not the sender's.
  deps.alarm(spec.refused.name, {
    alarmDescription: spec.refused.description,
    runbook: spec.refused.runbook,
    namespace: "FleetAuditor",
    metricName: spec.refused.metricName,
    dimensions: { service: spec.refused.service },
    statistic: "Sum",
    period: 300,
    evaluationPeriods: 1,
    threshold: 0,
    comparisonOperator: "GreaterThanThreshold",
    treatMissingData: "notBreaching",
  });
  return { url: fn.url, secret };
}
