import { isLoopbackHost } from "@fleet-auditor/http";
import { NEVER, object, optional, type output, string, url } from "zod";
import { IncidentRetentionDaysSchema, LandscapeSchema, TopicArnSchema } from "./audit-config.ts";
import { PROXY_VARIABLES, proxyFrom } from "./proxy-env.ts";
import { SecretIdSchema, secretRef } from "./secret.ts";
import { secretVariable } from "./secret-variable.ts";

/**
 * Variables of the Slack actions function (the endpoint the Slack app's interactivity calls):
 * `SLACK_SIGNING_SECRET` (the app's signing secret; deployed, in Secrets Manager by its ARN in
 * `SLACK_SIGNING_SECRET_ARN`), `SLACK_TEAM_ID` and `SLACK_CHANNEL` (the only workspace and channel
 * whose clicks are honoured: the bot's), `SLACK_RESPONSE_URL_PREFIX` (what a click's `response_url`
 * must start with: Slack's `https://hooks.slack.com/`, or a loopback stand-in's), what the incident
 * actions core acts on (`AUDIT_TABLE`, `INCIDENT_TOPIC_ARN`, `CRITICAL_TOPIC_ARN`; `LANDSCAPE`, as the
 * audit functions have it, so that what it tells lands in the incident's thread), and the proxy on
 * the way to Slack (`proxy`). The secret is named in a problem, its value never repeated.
 */
export const SlackActionsEnvSchema = object({
  SLACK_SIGNING_SECRET: optional(secretVariable()),
  SLACK_SIGNING_SECRET_ARN: SecretIdSchema,
  SLACK_TEAM_ID: string().regex(/^T[A-Z0-9]{1,30}$/, "expected a Slack workspace ID such as T0123ABCD"),
  SLACK_CHANNEL: string().regex(
    /^[CG][A-Z0-9]{1,30}$/,
    "expected the ID of the bot's channel, such as C0123ABCD",
  ),
  SLACK_RESPONSE_URL_PREFIX: url({
    protocol: /^https?$/,
    error: "expected a URL that response URLs start with",
  })
    .refine((u) => u.startsWith("https:") || isLoopbackHost(new URL(u).hostname), {
      error: "expected an https: URL (http: only to a loopback host)",
    })
    .default("https://hooks.slack.com/"),
  /** What the incident actions core acts on: the audit table, and the topics it tells. */
  AUDIT_TABLE: string().min(3),
  INCIDENT_TOPIC_ARN: TopicArnSchema,
  CRITICAL_TOPIC_ARN: TopicArnSchema,
  LANDSCAPE: LandscapeSchema,
  INCIDENT_RETENTION_DAYS: IncidentRetentionDaysSchema,
  ...PROXY_VARIABLES,
}).transform((env, ctx) => {
  const signingSecret = secretRef(
    "SLACK_SIGNING_SECRET",
    env.SLACK_SIGNING_SECRET,
    env.SLACK_SIGNING_SECRET_ARN,
    secretVariable(),
  );
  if (!signingSecret) {
    ctx.addIssue({
      code: "custom",
      path: ["SLACK_SIGNING_SECRET"],
      message:
        "is required: set SLACK_SIGNING_SECRET (the Slack app's signing secret) or SLACK_SIGNING_SECRET_ARN",
    });
    return NEVER;
  }
  return {
    signingSecret,
    rules: {
      teamId: env.SLACK_TEAM_ID,
      channelId: env.SLACK_CHANNEL,
      responseUrlPrefix: env.SLACK_RESPONSE_URL_PREFIX,
    },
    core: {
      auditTable: env.AUDIT_TABLE,
      incidentTopicArn: env.INCIDENT_TOPIC_ARN,
      criticalTopicArn: env.CRITICAL_TOPIC_ARN,
      ...(env.LANDSCAPE ? { landscape: env.LANDSCAPE } : {}),
      incidentRetentionDays: env.INCIDENT_RETENTION_DAYS,
    },
    proxy: proxyFrom(env),
  };
});

export type SlackActionsEnv = output<typeof SlackActionsEnvSchema>;
