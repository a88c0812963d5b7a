/** Stable codes of the notify package's errors. */
export type NotifyErrorCode = "NOTIFY_PUBLISH" | "NOTIFY_SLACK";

/** A message was not accepted by its destination. */
export class PublishError extends Error {
  readonly code: NotifyErrorCode = "NOTIFY_PUBLISH";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PublishError";
  }
}

/** Slack did not take a message: refused (4xx, with Slack's error text) or kept failing. */
export class SlackPostError extends Error {
  readonly code: NotifyErrorCode = "NOTIFY_SLACK";
  /** The last HTTP status; 0 when no answer came. */
  readonly status: number;
  /** Slack's answer, e.g. `invalid_blocks` (at most 300 characters). */
  readonly body: string;
  constructor(message: string, answer: { status: number; body: string }) {
    super(message);
    this.name = "SlackPostError";
    this.status = answer.status;
    this.body = answer.body;
  }
}
