export { type FunctionUrlEvent, type InboundRequest, inboundRequest, isRefusal } from "./inbound-request.ts";
export type { PagerDutyAction } from "./pagerduty-event.ts";
export { verifyPagerDutySignature } from "./pagerduty-signature.ts";
export {
  MAX_BODY_BYTES,
  type PagerDutyWebhookDeps,
  pagerDutyWebhook,
  type WebhookAnswer,
  type WebhookRequest,
} from "./pagerduty-webhook.ts";
export { REFUSAL_STATUS, type Refusal, type RefusalReason } from "./refusal.ts";
export {
  parseSlackInteraction,
  type SlackButtonClick,
  type SlackInteractionRules,
} from "./slack-interaction.ts";
export { SLACK_TIMESTAMP_TOLERANCE_SECONDS, verifySlackSignature } from "./slack-signature.ts";
