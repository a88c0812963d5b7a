// Which variable each function reads from which linked SST secret (not secret: where KEB is and
// who the auditor is), and which it reads from which Secrets Manager secret, by its ARN in
// `<variable>_ARN`. The wiring test checks that sst.config.ts links or grants every one.

/** The audit function's KEB connection, linked (none of it is secret). */
export const AUDIT_SECRETS = {
  KEB_URL: "KebUrl",
  KEB_TOKEN_URL: "KebTokenUrl",
  KEB_CLIENT_ID: "KebClientId",
} as const;

/** The audit function's secrets in Secrets Manager: the KEB client secret. */
export const AUDIT_MANAGED_SECRETS = { KEB_CLIENT_SECRET: "KebClientSecret" } as const;

/**
 * The Slack function's way to Slack, in Secrets Manager: an incoming webhook, or a bot's token
 * (which wins). A stage creates the one it uses (`sst.config.ts`, `FLEET_AUDITOR_SLACK`).
 */
export const SLACK_MANAGED_SECRETS = {
  SLACK_WEBHOOK_URL: "SlackWebhookUrl",
  SLACK_BOT_TOKEN: "SlackBotToken",
} as const;

/** The pager function's PagerDuty Events API v2 integration key, in Secrets Manager. */
export const PAGER_MANAGED_SECRETS = { PAGERDUTY_ROUTING_KEY: "PagerDutyRoutingKey" } as const;
