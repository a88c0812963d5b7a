import { createHttpAgent } from "@fleet-auditor/http/agent";
import { SlackBot, SlackWebhook } from "@fleet-auditor/notify";
import { DynamoSlackThreads, documentClient } from "@fleet-auditor/store";
import {
  type MessageOrder,
  type RunLogger,
  rotating,
  type SecretBuilt,
  type SecretReader,
  type SlackEnv,
  type SlackPoster,
  type SlackThreads,
  secretOf,
} from "@fleet-auditor/use-cases";
import { messageOrder } from "./delivery-order.ts";

/**
 * What `deliverToSlack` takes: the poster (built from the webhook URL or the token as it is now,
 * again when it was rotated), with a bot the store of its threads, and with the audit table the
 * order of each key's messages.
 */
export interface SlackDeps {
  poster: SecretBuilt<SlackPoster>;
  threads?: SlackThreads;
  order?: MessageOrder;
  log: RunLogger;
  /** Firing incidents' messages carry buttons (a bot whose Slack app has interactivity). */
  incidentActions?: boolean;
}

/**
 * The Slack function's adapters, once per cold start: the undici agent (through the proxy the
 * environment names) and either the incoming webhook, or the bot and its threads in the audit
 * table (a DocumentClient from the SDK's usual configuration), and the order of each key's
 * messages in the audit table when there is one. The URL or the token is read through `secrets`
 * when it is kept in Secrets Manager.
 */
export function slackDeps(env: SlackEnv, log: RunLogger, secrets?: SecretReader): SlackDeps {
  const paced = {
    dispatcher: createHttpAgent({ proxy: env.proxy }),
    minIntervalMs: env.SLACK_MIN_INTERVAL_MS,
  };
  const { slack } = env;
  if (slack.kind === "webhook") {
    const url = secretOf(slack.url, secrets);
    const order = messageOrder(slack.auditTable, "slack");
    return {
      poster: rotating(url, (u) => new SlackWebhook({ url: u, ...paced })),
      ...(order ? { order } : {}),
      log,
    };
  }
  if (slack.webhookIgnored)
    log.warn(
      "SLACK_BOT_TOKEN and SLACK_WEBHOOK_URL are both set: the bot posts (it threads); the webhook is not used",
    );
  const { token, channel, apiUrl, auditTable, interactivity } = slack;
  const client = documentClient();
  return {
    poster: rotating(secretOf(token, secrets), (t) => new SlackBot({ token: t, channel, apiUrl, ...paced })),
    threads: new DynamoSlackThreads({ client, tableName: auditTable, channel }),
    order: messageOrder(auditTable, "slack", client),
    log,
    ...(interactivity ? { incidentActions: true } : {}),
  };
}
