import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { deliverToSlack, freshAfterFailure, parseConfig, SlackEnvSchema } from "@fleet-auditor/use-cases";
import { recordDropped } from "./lib/delivery-order.ts";
import { secretsOnFirstRead } from "./lib/secret-reader.ts";
import { slackDeps } from "./lib/slack-deps.ts";
import { snsMessages } from "./lib/sns-event.ts";
import { functionStack } from "./lib/stack.ts";

// Cold start: configuration (fails here, naming the variable, never echoing the URL or the
// token), then the undici agent and the webhook, or the bot and its thread store, and the order of
// each key's messages, once. The URL or token is read from Secrets Manager (cached 5 minutes;
// afresh after a failed delivery).
const env = parseConfig(SlackEnvSchema, process.env);
const logger = new Logger({ serviceName: "fleet-auditor" });
const metrics = new Metrics({ namespace: "FleetAuditor", serviceName: "slack" });
const deps = slackDeps(env, logger, secretsOnFirstRead());
const withPoster = freshAfterFailure(deps.poster);

/**
 * SNS subscriber: each message of the incidents topic as Block Kit, through an incoming webhook (a
 * post each) or a bot (each incident in one thread; a health or `notify test` notice alone). A
 * message older than the last one posted under its key (Lambda retried it after the next run's
 * message) is dropped and counted (`Dropped`), not posted. A post Slack refuses or that keeps failing throws, so that Lambda retries and then sends the event to
 * the function's failure destination. The message is the use cases' `deliverToSlack`
 * (`slack-delivery.ts`, threads in `slack-thread.ts`), its Block Kit render's `slackMessage`
 * (`slack/render-slack.ts`), the posters notify's `SlackWebhook` and `SlackBot`; `fleet-auditor
 * slack preview` prints the same message.
 */
export const handler = functionStack<unknown, { posted: number; dropped: number }>(logger).handler(
  async (event, context) => {
    const deadline = Date.now() + context.getRemainingTimeInMillis() - env.SLACK_DEADLINE_MARGIN_MS;
    const result = await withPoster((poster) =>
      deliverToSlack({ ...deps, poster }, snsMessages(event), deadline),
    );
    logger.info("delivered", { slackPosts: result.posted, dropped: result.dropped });
    recordDropped(metrics, result.dropped);
    return result;
  },
);
