// PagerDuty back to the auditor: a v3 webhook subscription's deliveries (an incident acknowledged,
// unacknowledged or resolved in PagerDuty), deployed only on a stage whose `pagerDuty.webhook` in
// stages.json names the PagerDuty service; verified by `X-PagerDuty-Signature`, made with the
// subscription's signing secret (docs/deploy.md#pagerduty-webhook).

import { type InboundDeps, inboundFunction } from "./inbound-function.ts";

/**
 * The PagerDuty webhook function behind its function URL; returns the URL, for the webhook
 * subscription. Of the audit table it may do what the incident actions core does for a delivery
 * (DeleteItem too: an acknowledgement taken back in PagerDuty deletes the incident's
 * acknowledgement item).
 */
export function pagerDutyWebhookFunction(
  webhook: { serviceId: string },
  deps: InboundDeps,
): $util.Output<string> {
  return inboundFunction(
    {
      name: "PagerDutyWebhook",
      handler: "functions/pagerduty-webhook.handler",
      secret: {
        name: "PagerDutyWebhookSecret",
        description: "the PagerDuty v3 webhook subscription's signing secret",
        variable: "PAGERDUTY_WEBHOOK_SECRET_ARN",
      },
      tableActions: [
        "dynamodb:GetItem",
        "dynamodb:PutItem",
        "dynamodb:DeleteItem",
        "dynamodb:Query",
        "dynamodb:BatchGetItem",
      ],
      // PagerDuty sends one subscription's webhooks one at a time, and retries a 429.
      concurrency: 2,
      cutsShortSeconds: 0,
      environment: { PAGERDUTY_SERVICE_ID: webhook.serviceId },
      refused: {
        name: "PagerDutyWebhookRefused",
        description:
          "PagerDuty webhook deliveries refused (a bad signature, a replay, another service, an unknown incident)",
        runbook: "pagerdutywebhookrefused",
        metricName: "Refused",
        service: "pagerduty-webhook",
      },
    },
    deps,
  ).url;
}
