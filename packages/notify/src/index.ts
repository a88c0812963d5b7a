export { CriticalCopyPublisher, publishAll, snsAlertPublisher } from "./critical-copy.ts";
export * from "./errors.ts";
export { type OutboxLine, OutboxPublisher } from "./outbox-publisher.ts";
export { type SlackPayload, SlackWebhook, type SlackWebhookOptions } from "./slack-webhook.ts";
export { batches, SnsAlertPublisher, snsEntry } from "./sns-publisher.ts";
export { refusedAsTooLong } from "./too-long.ts";
