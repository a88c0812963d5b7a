import { coerce, object, type output, url } from "zod";
import { PROXY_VARIABLES, proxyFrom } from "./proxy-env.ts";

/**
 * Variables of the Slack function, and the proxy on the way to Slack (`proxy`, from
 * `HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`). The webhook URL is a secret (anyone holding it can
 * post to the channel): a problem with it is named, its value never repeated.
 */
export const SlackEnvSchema = object({
  SLACK_WEBHOOK_URL: url({ protocol: /^https?$/, error: "expected a Slack incoming webhook URL" }),
  /** Slack allows about one message a second per webhook. */
  SLACK_MIN_INTERVAL_MS: coerce.number().int().nonnegative().default(1_000),
  /** Kept back from the function's remaining time for the throw that makes Lambda retry. */
  SLACK_DEADLINE_MARGIN_MS: coerce.number().int().nonnegative().default(2_000),
  ...PROXY_VARIABLES,
}).transform(({ SLACK_WEBHOOK_URL, SLACK_MIN_INTERVAL_MS, SLACK_DEADLINE_MARGIN_MS, ...proxy }) => ({
  SLACK_WEBHOOK_URL,
  SLACK_MIN_INTERVAL_MS,
  SLACK_DEADLINE_MARGIN_MS,
  proxy: proxyFrom(proxy),
}));

export type SlackEnv = output<typeof SlackEnvSchema>;
