import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { createHttpAgent } from "@fleet-auditor/http/agent";
import { PagerDutyEvents } from "@fleet-auditor/notify";
import {
  deliverToPager,
  freshAfterFailure,
  PagerEnvSchema,
  parseConfig,
  rotating,
  secretOf,
} from "@fleet-auditor/use-cases";
import { messageOrder, recordDropped } from "./lib/delivery-order.ts";
import { secretsOnFirstRead } from "./lib/secret-reader.ts";
import { snsMessages } from "./lib/sns-event.ts";
import { functionStack } from "./lib/stack.ts";

// Cold start: configuration (fails here, naming the variable, never echoing the routing key), the
// undici agent (through the proxy the environment names) and the Events API client, once; again
// when the routing key in Secrets Manager changed (read cached 5 minutes; afresh after a failure).
// The order of each key's messages in the audit table, once.
const env = parseConfig(PagerEnvSchema, process.env);
const logger = new Logger({ serviceName: "fleet-auditor" });
const metrics = new Metrics({ namespace: "FleetAuditor", serviceName: "pager" });
const order = messageOrder(env.AUDIT_TABLE, "pager");
const dispatcher = createHttpAgent({ proxy: env.proxy });
const withPager = freshAfterFailure(
  rotating(
    secretOf(env.PAGERDUTY_ROUTING_KEY, secretsOnFirstRead()),
    (routingKey) => new PagerDutyEvents({ routingKey, eventsUrl: env.PAGERDUTY_EVENTS_URL, dispatcher }),
  ),
);

/**
 * SNS subscriber of the Critical topic: each incident's opening and end, and each health notice, as
 * a PagerDuty Events API v2 `trigger` or `resolve` under the incident's (or the episode's) key; a
 * `notify test` message as a trigger resolved at once. A message older than the last one sent under
 * its key (a trigger Lambda retried after its incident's resolve) is dropped and counted
 * (`Dropped`), not sent. A message it cannot map, or an event
 * PagerDuty refuses or keeps failing, throws, so that Lambda retries and then sends the event to
 * the function's failure destination. The mapping is the use cases' `deliverToPager`
 * (`pager-delivery.ts`), the sender notify's `PagerDutyEvents`.
 */
export const handler = functionStack<
  unknown,
  { sent: number; triggered: number; resolved: number; dropped: number }
>(logger).handler(async (event, context) => {
  const deadline = Date.now() + context.getRemainingTimeInMillis() - env.PAGERDUTY_DEADLINE_MARGIN_MS;
  const result = await withPager((pager) =>
    deliverToPager({ pager, order, log: logger }, snsMessages(event), deadline),
  );
  logger.info("delivered", { pagerEvents: result.sent, dropped: result.dropped });
  recordDropped(metrics, result.dropped);
  return result;
});
