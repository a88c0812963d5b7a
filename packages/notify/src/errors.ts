/** Stable codes of the notify package's errors. */
export type NotifyErrorCode = "NOTIFY_PUBLISH";

/** A message was not accepted by its destination. */
export class PublishError extends Error {
  readonly code: NotifyErrorCode = "NOTIFY_PUBLISH";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PublishError";
  }
}
