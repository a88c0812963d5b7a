export { type FunctionUrlEvent, type InboundRequest, inboundRequest, isRefusal } from "./inbound-request.ts";
export { REFUSAL_STATUS, type Refusal, type RefusalReason } from "./refusal.ts";
export {
  parseSlackInteraction,
  type SlackButtonClick,
  type SlackInteractionRules,
} from "./slack-interaction.ts";
export { SLACK_TIMESTAMP_TOLERANCE_SECONDS, verifySlackSignature } from "./slack-signature.ts";
