import { isLoopbackHost } from "@fleet-auditor/http";
import { coerce, NEVER, object, optional, string, url } from "zod";
import { PROXY_VARIABLES, proxyFrom } from "./proxy-env.ts";
import { SecretIdSchema, type SecretRef, secretRef } from "./secret.ts";

// Printable ASCII without spaces: a key pasted with its line break fails here, at cold start,
// not as PagerDuty's 400 at the first page. Its length is PagerDuty's to judge.
const routingKey = () =>
  string().regex(/^[!-~]+$/, {
    error: "expected a PagerDuty integration (routing) key: printable characters without spaces",
  });

/**
 * Variables of the pager function, and the proxy on the way to PagerDuty (`proxy`, from
 * `HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`). With `AUDIT_TABLE` (always, deployed), each
 * incident's and health episode's last message sent is kept there, and an older one is dropped
 * (`deliverToPager`); without it, messages are sent in the order they arrive. The routing key is a secret (anyone holding it can
 * open and close alerts on the service): a problem with it is named, its value never repeated.
 * Deployed, it is kept in Secrets Manager, its ARN in `PAGERDUTY_ROUTING_KEY_ARN`.
 */
export const PagerEnvSchema = object({
  PAGERDUTY_ROUTING_KEY: optional(routingKey()),
  PAGERDUTY_ROUTING_KEY_ARN: SecretIdSchema,
  // The routing key travels in the body: https, or http only to loopback (a stand-in, a test).
  PAGERDUTY_EVENTS_URL: url({ protocol: /^https?$/, error: "expected the PagerDuty Events API's URL" })
    .refine((u) => u.startsWith("https:") || isLoopbackHost(new URL(u).hostname), {
      error: "expected an https: URL (http: only to a loopback host)",
    })
    .default("https://events.pagerduty.com"),
  /** Kept back from the function's remaining time for the throw that makes Lambda retry. */
  PAGERDUTY_DEADLINE_MARGIN_MS: coerce.number().int().nonnegative().default(2_000),
  /** Where the last message sent per incident and health episode is kept (deployed: always set). */
  AUDIT_TABLE: optional(string().min(3)),
  ...PROXY_VARIABLES,
}).transform(
  (
    {
      PAGERDUTY_ROUTING_KEY,
      PAGERDUTY_ROUTING_KEY_ARN,
      PAGERDUTY_EVENTS_URL,
      PAGERDUTY_DEADLINE_MARGIN_MS,
      AUDIT_TABLE,
      ...proxy
    },
    ctx,
  ) => {
    const key: SecretRef | undefined = secretRef(
      "PAGERDUTY_ROUTING_KEY",
      PAGERDUTY_ROUTING_KEY,
      PAGERDUTY_ROUTING_KEY_ARN,
      routingKey(),
    );
    if (!key) {
      ctx.addIssue({
        code: "custom",
        path: ["PAGERDUTY_ROUTING_KEY"],
        message: "is required (or PAGERDUTY_ROUTING_KEY_ARN, the Secrets Manager secret that holds it)",
      });
      return NEVER;
    }
    return {
      PAGERDUTY_ROUTING_KEY: key,
      PAGERDUTY_EVENTS_URL,
      PAGERDUTY_DEADLINE_MARGIN_MS,
      ...(AUDIT_TABLE ? { AUDIT_TABLE } : {}),
      proxy: proxyFrom(proxy),
    };
  },
);
