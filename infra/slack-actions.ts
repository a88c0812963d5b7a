// The endpoint the Slack app's interactivity calls when someone clicks an incident message's
// button (Acknowledge, Silence 4h, Silence 24h): a Lambda function URL of its own, deployed only
// on a stage whose bot says `interactivity` in stages.json. Its auth type is NONE, because Slack
// cannot sign with SigV4: what lets a request in is Slack's signature, made with the app's signing
// secret, which the function verifies before it parses anything (docs/deploy.md#slack-buttons).

import { SLACK_ACTIONS_MANAGED_SECRETS } from "../functions/lib/secrets.ts";
import { SLACK_ACTIONS_SERVICE } from "../functions/lib/slack-click-metrics.ts";
import { type alarmTo, functionAlarms, reservedConcurrency, watchedFunction } from "./alarms.ts";
import { managedSecret, readSecret } from "./secrets.ts";

/** How many clicks run at once: people click, a few a minute at most. */
const CONCURRENCY = 2;

/**
 * The Slack actions function and its URL. It may read its signing secret; read and write the
 * incidents' records and silences in the audit table as the incident actions core does for a click
 * (GetItem, PutItem, Query, BatchGetItem on the table: a button acknowledges or silences, never
 * takes anything back, so no DeleteItem; the IAM contract test holds it to that); and publish what it did to the Incidents
 * topic (the incident's thread) and the Critical topic (the pager's acknowledge).
 */
export function slackActionsFunction(deps: {
  channel: string;
  teamId: string;
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
}): { url: $util.Output<string>; signingSecret: aws.secretsmanager.Secret } {
  const signingSecret = managedSecret(
    SLACK_ACTIONS_MANAGED_SECRETS.SLACK_SIGNING_SECRET,
    "the Slack app's signing secret (its interactivity requests are verified with it)",
    deps.protectedStage,
  );
  const args = {
    handler: "functions/slack-actions.handler",
    // Slack wants its answer within 3 seconds; the core's writes and the answer take well under.
    timeout: "10 seconds",
    memory: "256 MB",
    // No CORS: Slack calls it server to server, and no browser page has any business with it.
    // Anyone may reach it: a public URL bounded in concurrency, so that a flood of forged requests
    // is throttled instead of spending the account's concurrency (a real click is retried by
    // whoever clicked).
    url: { authorization: "none", cors: false },
    ...reservedConcurrency(deps.reserveConcurrency, CONCURRENCY),
    permissions: [
      readSecret(signingSecret),
      {
        actions: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query", "dynamodb:BatchGetItem"],
        resources: [deps.auditTable.arn],
      },
      { actions: ["sns:Publish"], resources: [deps.incidents.arn, deps.critical.arn] },
    ],
    environment: {
      SLACK_SIGNING_SECRET_ARN: signingSecret.arn,
      SLACK_TEAM_ID: deps.teamId,
      SLACK_CHANNEL: deps.channel,
      AUDIT_TABLE: deps.auditTable.name,
      INCIDENT_TOPIC_ARN: deps.incidents.arn,
      CRITICAL_TOPIC_ARN: deps.critical.arn,
      LANDSCAPE: deps.landscape,
      ...(deps.incidentRetentionDays ? { INCIDENT_RETENTION_DAYS: String(deps.incidentRetentionDays) } : {}),
    },
  } satisfies sst.aws.FunctionArgs;
  const fn = new sst.aws.Function("SlackActions", args);
  // Slack gives up on an answer after 3 seconds; the core's writes are never cut short, so its
  // Duration alarm (at 80 % of 8 s) tells of a function far slower than a click allows.
  functionAlarms(deps.alarm, watchedFunction("SlackActions", fn.name, args, 2));
  // Any refused request (a bad signature, a stale or malformed one, another workspace's or
  // channel's; not a click on an incident that has since ended): someone is knocking, or the
  // stage's signing secret, workspace or channel is not the app's.
  deps.alarm("SlackActionRefusals", {
    alarmDescription:
      "requests to the Slack actions function refused (a bad signature, a replay, another workspace)",
    runbook: "slack-action-refusals",
    namespace: "FleetAuditor",
    metricName: "SlackActionRefused",
    dimensions: { service: SLACK_ACTIONS_SERVICE },
    statistic: "Sum",
    period: 300,
    evaluationPeriods: 1,
    threshold: 0,
    comparisonOperator: "GreaterThanThreshold",
    treatMissingData: "notBreaching",
  });
  return { url: fn.url, signingSecret };
}
