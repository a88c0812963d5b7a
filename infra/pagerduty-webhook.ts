// PagerDuty back to the auditor: a v3 webhook subscription's deliveries (an incident acknowledged,
// unacknowledged or resolved in PagerDuty) reach a Lambda function URL of their own; deployed only
// on a stage whose `pagerDuty.webhook` in stages.json names the PagerDuty service, with the
// subscription's signing secret created in Secrets Manager for the operator to set
// (docs/deploy.md#pagerduty-webhook). The URL takes anyone's request (auth type NONE): each is
// verified by its `X-PagerDuty-Signature` before anything is read, and refused ones are counted
// (`Refused`) and alarmed on.

import { type alarmTo, functionAlarms, reservedConcurrency, watchedFunction } from "./alarms.ts";
import { managedSecret, readSecret } from "./secrets.ts";

/** How many deliveries run at once: PagerDuty sends one subscription's webhooks one at a time. */
const CONCURRENCY = 2;

/**
 * The PagerDuty webhook function behind its function URL; returns the URL, for the webhook
 * subscription. It may read its secret and the incidents' items in the audit table (DeleteItem: an
 * acknowledgement taken back in PagerDuty deletes the incident's acknowledgement item), and tell the
 * acknowledgement on the Incidents and Critical topics: what the acknowledgement core does (the IAM
 * contract test holds it to that).
 */
export function pagerDutyWebhookFunction(deps: {
  webhook: { serviceId: string };
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
}): $util.Output<string> {
  const secret = managedSecret(
    "PagerDutyWebhookSecret",
    "the PagerDuty v3 webhook subscription's signing secret",
    deps.protectedStage,
  );
  const args = {
    handler: "functions/pagerduty-webhook.handler",
    // PagerDuty waits 5 seconds for a 2xx, and retries anything else.
    timeout: "10 seconds",
    memory: "256 MB",
    // No CORS: PagerDuty's servers call it, never a browser. Anyone may reach it: a public URL
    // bounded in concurrency, so that a flood of forged requests is throttled (429, which
    // PagerDuty retries) instead of spending the account's concurrency.
    url: { authorization: "none", cors: false },
    ...reservedConcurrency(deps.reserveConcurrency, CONCURRENCY),
    permissions: [
      readSecret(secret),
      {
        actions: [
          "dynamodb:GetItem",
          "dynamodb:PutItem",
          "dynamodb:DeleteItem",
          "dynamodb:Query",
          "dynamodb:BatchGetItem",
        ],
        resources: [deps.auditTable.arn],
      },
      { actions: ["sns:Publish"], resources: [deps.incidents.arn, deps.critical.arn] },
    ],
    environment: {
      PAGERDUTY_WEBHOOK_SECRET_ARN: secret.arn,
      PAGERDUTY_SERVICE_ID: deps.webhook.serviceId,
      AUDIT_TABLE: deps.auditTable.name,
      INCIDENT_TOPIC_ARN: deps.incidents.arn,
      CRITICAL_TOPIC_ARN: deps.critical.arn,
      LANDSCAPE: deps.landscape,
      ...(deps.incidentRetentionDays ? { INCIDENT_RETENTION_DAYS: String(deps.incidentRetentionDays) } : {}),
    },
  } satisfies sst.aws.FunctionArgs;
  const fn = new sst.aws.Function("PagerDutyWebhook", args);
  functionAlarms(deps.alarm, watchedFunction("PagerDutyWebhook", fn.name, args, 0));
  deps.alarm("PagerDutyWebhookRefused", {
    alarmDescription:
      "PagerDuty webhook deliveries refused (a bad signature, a replay, another service, an unknown incident)",
    runbook: "pagerdutywebhookrefused",
    namespace: "FleetAuditor",
    metricName: "Refused",
    dimensions: { service: "pagerduty-webhook" },
    statistic: "Sum",
    period: 300,
    evaluationPeriods: 1,
    threshold: 0,
    comparisonOperator: "GreaterThanThreshold",
    treatMissingData: "notBreaching",
  });
  return fn.url;
}
