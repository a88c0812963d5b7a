import { coerce, object, type output, url } from "zod";

/**
 * Variables of the Slack function. The webhook URL is a secret (anyone holding it can post to the
 * channel): a problem with it is named, its value never repeated.
 */
export const SlackEnvSchema = object({
  SLACK_WEBHOOK_URL: url({ protocol: /^https?$/, error: "expected a Slack incoming webhook URL" }),
  /** Slack allows about one message a second per webhook. */
  SLACK_MIN_INTERVAL_MS: coerce.number().int().nonnegative().default(1_000),
  /** Kept back from the function's remaining time for the throw that makes Lambda retry. */
  SLACK_DEADLINE_MARGIN_MS: coerce.number().int().nonnegative().default(2_000),
});

export type SlackEnv = output<typeof SlackEnvSchema>;
