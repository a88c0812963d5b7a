import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { PagerDutyWebhookEnvSchema, parseConfig } from "@fleet-auditor/use-cases";
import { incidentActionsOf } from "./lib/pagerduty-webhook-core.ts";
import { pagerDutyWebhookHandler } from "./lib/pagerduty-webhook-handler.ts";
import { secretsOnFirstRead } from "./lib/secret-reader.ts";

// Cold start: configuration (fails here, naming the variable, never echoing the secret), the
// acknowledgement core with its store and topics, once. The signing secret is read from Secrets
// Manager at the first delivery (cached 5 minutes; afresh, at most once a minute, when no
// signature matches: it may have been rotated).
const env = parseConfig(PagerDutyWebhookEnvSchema, process.env);
const logger = new Logger({ serviceName: "fleet-auditor" });
const metrics = new Metrics({ namespace: "FleetAuditor", serviceName: "pagerduty-webhook" });

/**
 * PagerDuty v3 webhooks, through a Lambda function URL: an incident acknowledged, unacknowledged
 * or resolved in PagerDuty, verified by its `X-PagerDuty-Signature` before anything is parsed,
 * then applied to the incident here by the acknowledgement core. Refusals (401, 413, 400, 403, and
 * acknowledgements of unknown incidents, answered 200) are counted in `Refused`; the stages are
 * inbound's `pagerDutyWebhook`, the wiring `lib/pagerduty-webhook-handler.ts`.
 */
export const handler = pagerDutyWebhookHandler({
  env,
  logger,
  metrics,
  act: incidentActionsOf(env, logger),
  secrets: secretsOnFirstRead(),
});
