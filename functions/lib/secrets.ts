// Which variable each function reads from which linked SST secret (not secret: where KEB is and
// who the auditor is), and which it reads from which Secrets Manager secret, by its ARN in
// `<variable>_ARN`. The wiring test checks that sst.config.ts links or grants every one.

/**
 * The audit function's KEB connection, linked (none of it is secret); `KEB_USERNAME` only on a
 * stage whose `keb.grant` is `password`.
 */
export const AUDIT_SECRETS = {
  KEB_URL: "KebUrl",
  KEB_TOKEN_URL: "KebTokenUrl",
  KEB_CLIENT_ID: "KebClientId",
  KEB_USERNAME: "KebUsername",
} as const;

/**
 * The audit function's secrets in Secrets Manager, as its stage's `keb` declares them: the KEB
 * client secret (client credentials) or the technical user's password (`grant: "password"`), and
 * an https proxy's URL with credentials (`proxySecret`).
 */
export const AUDIT_MANAGED_SECRETS = {
  KEB_CLIENT_SECRET: "KebClientSecret",
  KEB_PASSWORD: "KebPassword",
  HTTPS_PROXY: "KebHttpsProxy",
} as const;

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

/** The Slack actions function's signing secret (the Slack app's), in Secrets Manager. */
export const SLACK_ACTIONS_MANAGED_SECRETS = { SLACK_SIGNING_SECRET: "SlackSigningSecret" } as const;
/** The PagerDuty webhook function's v3 webhook subscription signing secret, in Secrets Manager. */
export const PAGERDUTY_WEBHOOK_MANAGED_SECRETS = {
  PAGERDUTY_WEBHOOK_SECRET: "PagerDutyWebhookSecret",
} as const;
