import { createHttpAgent } from "@fleet-auditor/keb";
import { SlackBot, SlackWebhook } from "@fleet-auditor/notify";
import type { RunLogger, SlackEnv, SlackPoster, SlackThreads } from "@fleet-auditor/runner";
import { DynamoSlackThreads, documentClient } from "@fleet-auditor/store";

/** What `deliverToSlack` takes: the poster, and with a bot the store of its threads. */
export interface SlackDeps {
  poster: SlackPoster;
  threads?: SlackThreads;
  log: RunLogger;
}

/**
 * The Slack function's adapters, once per cold start: the undici agent (through the proxy the
 * environment names) and either the incoming webhook, or the bot and its threads in the audit
 * table (a DocumentClient from the SDK's usual configuration).
 */
export function slackDeps(env: SlackEnv, log: RunLogger): SlackDeps {
  const paced = {
    dispatcher: createHttpAgent({ proxy: env.proxy }),
    minIntervalMs: env.SLACK_MIN_INTERVAL_MS,
  };
  const { slack } = env;
  if (slack.kind === "webhook") return { poster: new SlackWebhook({ url: slack.url, ...paced }), log };
  if (slack.webhookIgnored)
    log.warn(
      "SLACK_BOT_TOKEN and SLACK_WEBHOOK_URL are both set: the bot posts (it threads); the webhook is not used",
    );
  const { token, channel, apiUrl, auditTable } = slack;
  return {
    poster: new SlackBot({ token, channel, apiUrl, ...paced }),
    threads: new DynamoSlackThreads({ client: documentClient(), tableName: auditTable, channel }),
    log,
  };
}
