// Slack without Chatbot: Block Kit to an incoming webhook, or through a bot that keeps each
// incident in one thread; deployed only on a stage whose `slack` in stages.json says which, its
// secret created in Secrets Manager for the operator to set (docs/deploy.md#secrets). Each
// incident's and health episode's last message posted is kept in the audit table, so that an
// older one Lambda retries late is dropped.

import { type alarmTo, functionAlarms, reservedConcurrency, watchedFunction } from "./alarms.ts";
import type { Failures } from "./failures.ts";
import { managedSecret, readSecret } from "./secrets.ts";
import type { StageSettings } from "./stage-schema.ts";

/** The Slack function on the Incidents topic, the way the stage names. */
export function slackFunction(deps: {
  slack: NonNullable<StageSettings["slack"]>;
  incidents: sst.aws.SnsTopic;
  auditTable: sst.aws.Dynamo;
  failures: Failures;
  protectedStage: boolean;
  /** The stage's `reservedConcurrency` (default true). */
  reserveConcurrency: boolean;
  alarm: ReturnType<typeof alarmTo>;
}): void {
  const { slack, failures } = deps;
  const secret =
    slack.way === "bot"
      ? managedSecret("SlackBotToken", "the Slack bot's token (xoxb-…)", deps.protectedStage)
      : managedSecret("SlackWebhookUrl", "the Slack incoming webhook URL", deps.protectedStage);
  // The function keeps each key's last message posted in the audit table (partition keys
  // SLACK#<key>, store's `itemKey.messageOrder`: held and recorded by UpdateItem, read by GetItem
  // where a refused condition comes back without the item), and the bot each incident's thread
  // parent (SLACK#<incidentKey>, `itemKey.slackThread`: GetItem, PutItem). Those items only.
  const bot = slack.way === "bot";
  const access = {
    actions: bot
      ? ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem"]
      : ["dynamodb:GetItem", "dynamodb:UpdateItem"],
    resources: [deps.auditTable.arn],
    conditions: [{ test: "ForAllValues:StringLike", variable: "dynamodb:LeadingKeys", values: ["SLACK#*"] }],
  };
  const environment: Record<string, $util.Input<string>> = slack.way === "bot"
    ? {
        SLACK_BOT_TOKEN_ARN: secret.arn,
        SLACK_CHANNEL: slack.channel,
        AUDIT_TABLE: deps.auditTable.name,
        // The buttons, where the app's clicks reach the SlackActions function (infra/slack-actions.ts).
        ...(slack.interactivity ? { SLACK_INTERACTIVITY: "true" } : {}),
      }
    : { SLACK_WEBHOOK_URL_ARN: secret.arn, AUDIT_TABLE: deps.auditTable.name };
  const args = {
    handler: "functions/slack.handler",
    // Room for a 429's Retry-After and a few backoffs; a post that still fails throws, Lambda
    // retries twice, then the event goes to Failures.
    timeout: "1 minute",
    memory: "256 MB",
    retries: 2,
    transform: failures.destination,
    // One delivery at a time: Slack takes about one message a second per channel anyway. Lambda
    // keeps the events it throttles and retries them, within the hour the failure destination
    // allows. Without it (reservedConcurrency: false, a sandbox), two deliveries of one incident
    // still go one after the other: each holds its key in the audit table while it posts.
    ...reservedConcurrency(deps.reserveConcurrency, 1),
    permissions: [readSecret(secret), failures.send, access],
    environment,
  } satisfies sst.aws.FunctionArgs;
  const fn = deps.incidents.subscribe("Slack", args);
  functionAlarms(deps.alarm, watchedFunction("Slack", fn.nodes.function.name, args, 2));
}
