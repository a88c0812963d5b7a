export * from "./errors.ts";
export { type OutboxLine, OutboxPublisher } from "./outbox-publisher.ts";
export { SnsAlertPublisher } from "./sns-publisher.ts";
