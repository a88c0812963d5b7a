import type { AuditDefinition } from "@fleet-auditor/audit";
import { createHttpAgent } from "@fleet-auditor/keb";
import { KEB_AUDITS } from "@fleet-auditor/keb-audits/audits";
import { applicationsAudit } from "@fleet-auditor/kubeedge-audit/audits";
import { SlackBot, SlackWebhook } from "@fleet-auditor/notify";
import { DynamoSlackThreads, documentClient } from "@fleet-auditor/store";
import {
  type RunLogger,
  rotating,
  type SecretBuilt,
  type SecretReader,
  type SlackEnv,
  type SlackPoster,
  type SlackThreads,
  secretOf,
} from "@fleet-auditor/use-cases";

/**
 * What `deliverToSlack` takes: the poster (built from the webhook URL or the token as it is now,
 * again when it was rotated), with a bot the store of its threads, and the audits whose digests
 * arrive (their definitions only: the plug-ins' pure subpaths, no source).
 */
export interface SlackDeps {
  poster: SecretBuilt<SlackPoster>;
  threads?: SlackThreads;
  audits: readonly AuditDefinition[];
  log: RunLogger;
}

const AUDITS: readonly AuditDefinition[] = [...KEB_AUDITS, applicationsAudit];

/**
 * The Slack function's adapters, once per cold start: the undici agent (through the proxy the
 * environment names) and either the incoming webhook, or the bot and its threads in the audit
 * table (a DocumentClient from the SDK's usual configuration). The URL or the token is read
 * through `secrets` when it is kept in Secrets Manager.
 */
export function slackDeps(env: SlackEnv, log: RunLogger, secrets?: SecretReader): SlackDeps {
  const paced = {
    dispatcher: createHttpAgent({ proxy: env.proxy }),
    minIntervalMs: env.SLACK_MIN_INTERVAL_MS,
  };
  const { slack } = env;
  if (slack.kind === "webhook") {
    const url = secretOf(slack.url, secrets);
    return { poster: rotating(url, (u) => new SlackWebhook({ url: u, ...paced })), audits: AUDITS, log };
  }
  if (slack.webhookIgnored)
    log.warn(
      "SLACK_BOT_TOKEN and SLACK_WEBHOOK_URL are both set: the bot posts (it threads); the webhook is not used",
    );
  const { token, channel, apiUrl, auditTable } = slack;
  return {
    poster: rotating(secretOf(token, secrets), (t) => new SlackBot({ token: t, channel, apiUrl, ...paced })),
    threads: new DynamoSlackThreads({ client: documentClient(), tableName: auditTable, channel }),
    audits: AUDITS,
    log,
  };
}
