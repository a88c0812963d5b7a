// Which variable each function reads from which linked SST secret. The wiring test checks that
// sst.config.ts links every one.

/** The audit function's KEB connection. */
export const AUDIT_SECRETS = {
  KEB_URL: "KebUrl",
  KEB_TOKEN_URL: "KebTokenUrl",
  KEB_CLIENT_ID: "KebClientId",
  KEB_CLIENT_SECRET: "KebClientSecret",
} as const;

/**
 * The Slack function's way to Slack: an incoming webhook, or a bot's token (which wins). A stage
 * links the ones it has set, at least one (`sst.config.ts`).
 */
export const SLACK_SECRETS = {
  SLACK_WEBHOOK_URL: "SlackWebhookUrl",
  SLACK_BOT_TOKEN: "SlackBotToken",
} as const;

/** The pager function's PagerDuty Events API v2 integration key. */
export const PAGER_SECRETS = { PAGERDUTY_ROUTING_KEY: "PagerDutyRoutingKey" } as const;
