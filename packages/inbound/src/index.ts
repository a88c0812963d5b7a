export type { PagerDutyAction } from "./pagerduty-event.ts";
export { verifyPagerDutySignature } from "./pagerduty-signature.ts";
export {
  type InboundRequest,
  MAX_BODY_BYTES,
  type PagerDutyWebhookDeps,
  pagerDutyWebhook,
  type WebhookAnswer,
} from "./pagerduty-webhook.ts";
