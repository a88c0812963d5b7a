export * from "./errors.ts";
export { type OutboxLine, OutboxPublisher } from "./outbox-publisher.ts";
export {
  type PagerDutyAction,
  type PagerDutyEvent,
  PagerDutyEvents,
  type PagerDutyEventsOptions,
} from "./pagerduty-events.ts";
export { publishAll } from "./publish-all.ts";
export { RoutedPublisher, type Routes, snsAlertPublisher } from "./routed-publisher.ts";
export { SlackBot, type SlackBotOptions, type SlackReply } from "./slack-bot.ts";
export type { SlackSenderOptions } from "./slack-sender.ts";
export {
  type SlackPayload,
  type SlackPosted,
  SlackWebhook,
  type SlackWebhookOptions,
} from "./slack-webhook.ts";
export {
  byteSize,
  type ProtocolBodies,
  SNS_BYTE_BUDGET,
  SNS_MESSAGE_LIMIT,
  type SnsAttribute,
  snsAttributes,
  snsMessage,
} from "./sns-envelope.ts";
export { batches, SnsAlertPublisher, snsEntry } from "./sns-publisher.ts";
export { refusedAsTooLong } from "./too-long.ts";
