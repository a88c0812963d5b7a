import { FleetAuditorError } from "@fleet-auditor/errors";

/** Stable codes of the notify package's errors. */
type NotifyErrorCode = "NOTIFY_PUBLISH" | "NOTIFY_SLACK" | "NOTIFY_PAGERDUTY";

/** Base of the notify package's errors. */
class NotifyError extends FleetAuditorError<NotifyErrorCode> {
  constructor(code: NotifyErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "NotifyError";
  }
}

/** A message was not accepted by its destination. */
export class PublishError extends NotifyError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("NOTIFY_PUBLISH", message, options);
    this.name = "PublishError";
  }
}

/**
 * Slack did not take a message: refused (a webhook's 4xx with Slack's error text; the Web API's
 * `ok: false` with its `error`) or kept failing (429, 5xx, no answer until the deadline).
 */
export class SlackPostError extends NotifyError {
  /** The last HTTP status (200 for a Web API refusal); 0 when no answer came. */
  readonly status: number;
  /** Slack's answer, e.g. `invalid_blocks`, `channel_not_found` (at most 300 characters). */
  readonly body: string;
  constructor(message: string, answer: { status: number; body: string }) {
    super("NOTIFY_SLACK", message);
    this.name = "SlackPostError";
    this.status = answer.status;
    this.body = answer.body;
  }
}

/**
 * PagerDuty did not take an event: refused (a 4xx: 400 with PagerDuty's `message` and `errors`)
 * or kept failing (429, 5xx, no answer) until the deadline. Never carries the routing key.
 */
export class PagerDutyError extends NotifyError {
  /** The last HTTP status; 0 when no answer came. */
  readonly status: number;
  /** `trigger`, `acknowledge` or `resolve`. */
  readonly action: string;
  /** The event's `dedup_key` (an incident's or a health episode's key: no secret). */
  readonly dedupKey: string;
  /** PagerDuty's `errors` (each at most 300 characters), or its answer's text. */
  readonly errors: readonly string[];
  constructor(
    message: string,
    context: { status: number; action: string; dedupKey: string; errors: readonly string[] },
  ) {
    super("NOTIFY_PAGERDUTY", message);
    this.name = "PagerDutyError";
    this.status = context.status;
    this.action = context.action;
    this.dedupKey = context.dedupKey;
    this.errors = context.errors;
  }
}
