export * from "./errors.ts";
export { type OutboxLine, OutboxPublisher } from "./outbox-publisher.ts";
export { type PagerDutyEvent, PagerDutyEvents } from "./pagerduty-events.ts";
export { publishAll } from "./publish-all.ts";
export { snsAlertPublisher } from "./routed-publisher.ts";
export { SlackBot, type SlackBotOptions } from "./slack-bot.ts";
export { SlackWebhook } from "./slack-webhook.ts";
export { byteSize, SNS_BYTE_BUDGET } from "./sns-envelope.ts";
export { batches, SnsAlertPublisher, snsEntry } from "./sns-publisher.ts";
