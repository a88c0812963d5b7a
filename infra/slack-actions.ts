// The endpoint the Slack app's interactivity calls when someone clicks an incident message's
// button (Acknowledge, Silence 4h, Silence 24h), deployed only on a stage whose bot says
// `interactivity` in stages.json; verified by Slack's signature, made with the app's signing
// secret (docs/deploy.md#slack-buttons).

import { SLACK_ACTIONS_MANAGED_SECRETS } from "../functions/lib/secrets.ts";
import { SLACK_ACTIONS_SERVICE } from "../functions/lib/slack-click-metrics.ts";
import { type InboundDeps, inboundFunction } from "./inbound-function.ts";

/**
 * The Slack actions function and its URL. Of the audit table it may do what the incident actions
 * core does for a click (GetItem, PutItem, Query, BatchGetItem: a button acknowledges or silences,
 * never takes anything back, so no DeleteItem).
 */
export function slackActionsFunction(
  slack: { channel: string; teamId: string },
  deps: InboundDeps,
): { url: $util.Output<string>; signingSecret: aws.secretsmanager.Secret } {
  const { url, secret } = inboundFunction(
    {
      name: "SlackActions",
      handler: "functions/slack-actions.handler",
      secret: {
        name: SLACK_ACTIONS_MANAGED_SECRETS.SLACK_SIGNING_SECRET,
        description: "the Slack app's signing secret (its interactivity requests are verified with it)",
        variable: "SLACK_SIGNING_SECRET_ARN",
      },
      tableActions: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query", "dynamodb:BatchGetItem"],
      // People click, a few a minute at most; a throttled click fails and the second goes through.
      concurrency: 2,
      // Slack gives up on an answer after 3 seconds; the core's writes are never cut short, so its
      // Duration alarm (at 80 % of 8 s) tells of a function far slower than a click allows.
      cutsShortSeconds: 2,
      environment: { SLACK_TEAM_ID: slack.teamId, SLACK_CHANNEL: slack.channel },
      refused: {
        name: "SlackActionRefusals",
        description:
          "requests to the Slack actions function refused (a bad signature, a replay, another workspace)",
        runbook: "slack-action-refusals",
        metricName: "SlackActionRefused",
        service: SLACK_ACTIONS_SERVICE,
      },
    },
    deps,
  );
  return { url, signingSecret: secret };
}
