import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import { createHttpAgent } from "@fleet-auditor/keb";
import { SlackWebhook } from "@fleet-auditor/notify";
import { deliverToSlack, parseConfig, SlackEnvSchema } from "@fleet-auditor/runner";
import { linkedEnv } from "./lib/linked-env.ts";
import { SLACK_SECRETS } from "./lib/secrets.ts";
import { snsMessages } from "./lib/sns-event.ts";
import { functionStack } from "./lib/stack.ts";

// Cold start: configuration (fails here, naming the variable, never echoing the URL), the undici
// agent (through the proxy the environment names) and the webhook, once.
const env = parseConfig(SlackEnvSchema, linkedEnv(SLACK_SECRETS));
const logger = new Logger({ serviceName: "fleet-auditor" });
const metrics = new Metrics({ namespace: "FleetAuditor", serviceName: "slack" });
const poster = new SlackWebhook({
  url: env.SLACK_WEBHOOK_URL,
  dispatcher: createHttpAgent({ proxy: env.proxy }),
  minIntervalMs: env.SLACK_MIN_INTERVAL_MS,
});

/**
 * SNS subscriber: each alert as Block Kit to a Slack incoming webhook. A post Slack refuses or
 * that keeps failing throws, so that Lambda retries and then sends the event to the function's
 * failure destination. The message is the runner's `deliverToSlack` (`slack-delivery.ts`), its
 * Block Kit render's `slackMessage` (`slack/render-slack.ts`), the poster notify's
 * `SlackWebhook`; `fleet-auditor slack preview` prints the same message.
 */
export const handler = functionStack<unknown, { posted: number }>(logger, metrics).handler(
  async (event, context) => {
    const deadline = Date.now() + context.getRemainingTimeInMillis() - env.SLACK_DEADLINE_MARGIN_MS;
    const result = await deliverToSlack({ poster, log: logger }, snsMessages(event), deadline);
    metrics.addMetric("SlackPosts", MetricUnit.Count, result.posted);
    return result;
  },
);
