import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import { deliverToSlack, parseConfig, SlackEnvSchema } from "@fleet-auditor/runner";
import { linkedEnv } from "./lib/linked-env.ts";
import { SLACK_SECRETS } from "./lib/secrets.ts";
import { slackDeps } from "./lib/slack-deps.ts";
import { snsMessages } from "./lib/sns-event.ts";
import { functionStack } from "./lib/stack.ts";

// Cold start: configuration (fails here, naming the variable, never echoing the URL or the
// token), then the undici agent and the webhook, or the bot and its thread store, once.
const env = parseConfig(SlackEnvSchema, linkedEnv(SLACK_SECRETS));
const logger = new Logger({ serviceName: "fleet-auditor" });
const metrics = new Metrics({ namespace: "FleetAuditor", serviceName: "slack" });
const deps = slackDeps(env, logger);

/**
 * SNS subscriber: each message of the incidents topic as Block Kit, through an incoming webhook (a
 * post each) or a bot (each incident in one thread; a health or `notify test` notice alone). A post
 * Slack refuses or that keeps failing throws, so that Lambda retries and then sends the event to
 * the function's failure destination. The message is the runner's `deliverToSlack`
 * (`slack-delivery.ts`, threads in `slack-thread.ts`), its Block Kit render's `slackMessage`
 * (`slack/render-slack.ts`), the posters notify's `SlackWebhook` and `SlackBot`; `fleet-auditor
 * slack preview` prints the same message.
 */
export const handler = functionStack<unknown, { posted: number }>(logger, metrics).handler(
  async (event, context) => {
    const deadline = Date.now() + context.getRemainingTimeInMillis() - env.SLACK_DEADLINE_MARGIN_MS;
    const result = await deliverToSlack(deps, snsMessages(event), deadline);
    metrics.addMetric("SlackPosts", MetricUnit.Count, result.posted);
    return result;
  },
);
