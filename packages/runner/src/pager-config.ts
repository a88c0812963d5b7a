import { isLoopbackHost } from "@fleet-auditor/keb";
import { coerce, object, type output, string, url } from "zod";
import { PROXY_VARIABLES, proxyFrom } from "./proxy-env.ts";

/**
 * Variables of the pager function, and the proxy on the way to PagerDuty (`proxy`, from
 * `HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`). The routing key is a secret (anyone holding it can
 * open and close alerts on the service): a problem with it is named, its value never repeated.
 */
export const PagerEnvSchema = object({
  // Printable ASCII without spaces: a key pasted with its line break fails here, at cold start,
  // not as PagerDuty's 400 at the first page. Its length is PagerDuty's to judge.
  PAGERDUTY_ROUTING_KEY: string().regex(/^[!-~]+$/, {
    error: "expected a PagerDuty integration (routing) key: printable characters without spaces",
  }),
  // The routing key travels in the body: https, or http only to loopback (a stand-in, a test).
  PAGERDUTY_EVENTS_URL: url({ protocol: /^https?$/, error: "expected the PagerDuty Events API's URL" })
    .refine((u) => u.startsWith("https:") || isLoopbackHost(new URL(u).hostname), {
      error: "expected an https: URL (http: only to a loopback host)",
    })
    .default("https://events.pagerduty.com"),
  /** Kept back from the function's remaining time for the throw that makes Lambda retry. */
  PAGERDUTY_DEADLINE_MARGIN_MS: coerce.number().int().nonnegative().default(2_000),
  ...PROXY_VARIABLES,
}).transform(({ PAGERDUTY_ROUTING_KEY, PAGERDUTY_EVENTS_URL, PAGERDUTY_DEADLINE_MARGIN_MS, ...proxy }) => ({
  PAGERDUTY_ROUTING_KEY,
  PAGERDUTY_EVENTS_URL,
  PAGERDUTY_DEADLINE_MARGIN_MS,
  proxy: proxyFrom(proxy),
}));

export type PagerEnv = output<typeof PagerEnvSchema>;
