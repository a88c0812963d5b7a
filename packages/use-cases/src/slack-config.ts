import { isLoopbackHost } from "@fleet-auditor/http";
import { coerce, NEVER, object, enum as oneOf, optional, type output, string, url } from "zod";
import { PROXY_VARIABLES, proxyFrom } from "./proxy-env.ts";
import { SecretIdSchema, type SecretRef, secretRef } from "./secret.ts";
import { secretVariable } from "./secret-variable.ts";

/** How the Slack function reaches Slack: an incoming webhook, or a bot that threads. */
type SlackWay =
  | {
      kind: "webhook";
      url: SecretRef;
      /** The audit table, where the last message posted per incident is kept; without it, none is. */
      auditTable?: string;
    }
  | {
      kind: "bot";
      token: SecretRef;
      channel: string;
      apiUrl: string;
      /** The audit table, where each incident's thread parent and last message posted are kept. */
      auditTable: string;
      /** `SLACK_WEBHOOK_URL` was set too, and is not used: the bot wins. */
      webhookIgnored: boolean;
      /** The Slack app sends clicks to the stage's function: firing incidents' messages get buttons. */
      interactivity: boolean;
    };

const webhookUrl = () => url({ protocol: /^https?$/, error: "expected a Slack incoming webhook URL" });

const SlackVariables = object({
  SLACK_WEBHOOK_URL: optional(webhookUrl()),
  SLACK_BOT_TOKEN: optional(secretVariable()),
  /** Where the webhook URL or the bot token is kept instead (Secrets Manager), as deployed. */
  SLACK_WEBHOOK_URL_ARN: SecretIdSchema,
  SLACK_BOT_TOKEN_ARN: SecretIdSchema,
  SLACK_CHANNEL: optional(
    string().regex(/^#?[A-Za-z0-9_-]{1,80}$/, "expected a channel ID (C0123ABCD) or a channel name"),
  ),
  // The Web API's base URL: https, or plain http to a loopback stand-in only (a token is sent).
  SLACK_API_URL: optional(
    url({ protocol: /^https?$/ }).refine(
      (v) => v.startsWith("https:") || isLoopbackHost(new URL(v).hostname),
      "plain http is allowed only to a loopback host",
    ),
  ),
  AUDIT_TABLE: optional(string().min(3)),
  /** `true`: the bot's incident messages carry buttons, which the Slack app sends to the stage's function. */
  SLACK_INTERACTIVITY: optional(oneOf(["true", "false"], { error: "expected true or false" })),
  /** Slack allows about one message a second per webhook or channel. */
  SLACK_MIN_INTERVAL_MS: coerce.number().int().nonnegative().default(1_000),
  /** Kept back from the function's remaining time for the throw that makes Lambda retry. */
  SLACK_DEADLINE_MARGIN_MS: coerce.number().int().nonnegative().default(2_000),
  ...PROXY_VARIABLES,
});

/**
 * Variables of the Slack function: `SLACK_WEBHOOK_URL` (an incoming webhook: one post per
 * message), or `SLACK_BOT_TOKEN` with `SLACK_CHANNEL` and `AUDIT_TABLE` (a bot: each incident
 * in one thread, its parent kept in the audit table; `SLACK_API_URL` for a stand-in). With
 * `AUDIT_TABLE` (always, deployed), each incident's and health episode's last message posted is
 * kept there too, and an older one is dropped (`deliverToSlack`). `SLACK_INTERACTIVITY=true` (a
 * bot only) puts the buttons on firing incidents' messages. With both,
 * the bot wins (`webhookIgnored`, which the function logs). Either secret may instead be kept in
 * Secrets Manager, its ARN in `SLACK_WEBHOOK_URL_ARN` or `SLACK_BOT_TOKEN_ARN`. The proxy on the way to Slack is
 * `proxy` (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`). The URL and the token are secrets: a
 * problem with either is named, its value never repeated.
 */
export const SlackEnvSchema = SlackVariables.transform((env, ctx) => {
  const problem = (variable: string, message: string): typeof NEVER => {
    ctx.addIssue({ code: "custom", path: [variable], message });
    return NEVER;
  };
  const common = {
    SLACK_MIN_INTERVAL_MS: env.SLACK_MIN_INTERVAL_MS,
    SLACK_DEADLINE_MARGIN_MS: env.SLACK_DEADLINE_MARGIN_MS,
    proxy: proxyFrom(env),
  };
  const token = secretRef("SLACK_BOT_TOKEN", env.SLACK_BOT_TOKEN, env.SLACK_BOT_TOKEN_ARN, secretVariable());
  const webhook = secretRef(
    "SLACK_WEBHOOK_URL",
    env.SLACK_WEBHOOK_URL,
    env.SLACK_WEBHOOK_URL_ARN,
    webhookUrl(),
  );
  const interactivity = env.SLACK_INTERACTIVITY === "true";
  if (!token) {
    if (interactivity)
      return problem(
        "SLACK_INTERACTIVITY",
        "is true without SLACK_BOT_TOKEN: only a bot's messages carry buttons (an incoming webhook's click reaches no one)",
      );
    if (!webhook)
      return problem(
        "SLACK_WEBHOOK_URL",
        "is required: set SLACK_WEBHOOK_URL (an incoming webhook), or SLACK_BOT_TOKEN with SLACK_CHANNEL and AUDIT_TABLE (a bot, which threads); or their _ARN",
      );
    const slack: SlackWay = {
      kind: "webhook",
      url: webhook,
      ...(env.AUDIT_TABLE ? { auditTable: env.AUDIT_TABLE } : {}),
    };
    return { slack, ...common };
  }
  if (!env.SLACK_CHANNEL)
    return problem("SLACK_CHANNEL", "is required with SLACK_BOT_TOKEN: the channel to post to");
  if (!env.AUDIT_TABLE)
    return problem("AUDIT_TABLE", "is required with SLACK_BOT_TOKEN: each incident's thread is kept there");
  const slack: SlackWay = {
    kind: "bot",
    token,
    channel: env.SLACK_CHANNEL,
    apiUrl: env.SLACK_API_URL ?? "https://slack.com/api",
    auditTable: env.AUDIT_TABLE,
    webhookIgnored: webhook !== undefined,
    interactivity,
  };
  return { slack, ...common };
});

export type SlackEnv = output<typeof SlackEnvSchema>;
