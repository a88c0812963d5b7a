import type { Dispatcher } from "@fleet-auditor/http";
import { type RetryOptions, redact } from "@fleet-auditor/http";
import { array, looseObject, string } from "zod";
import { type Attempted, retryBeforeDeadline } from "./deadline-retry.ts";
import { PagerDutyError } from "./errors.ts";
import { postOnce } from "./post-once.ts";

/** What PagerDuty does with an alert: `trigger` opens it (or adds to the open one), `resolve` closes it. */
type PagerDutyAction = "trigger" | "acknowledge" | "resolve";

/**
 * An Events API v2 event without its `routing_key`, which only this client holds. Typed by
 * shape: the use cases' `pager-delivery.ts` builds the whole event (payload, links) and fits it
 * here, and this client only needs to know what it sends and under which key.
 */
export interface PagerDutyEvent {
  event_action: PagerDutyAction;
  /** At most 255 characters; the same key closes on `resolve` what `trigger` opened. */
  dedup_key: string;
  /** `trigger` only: `summary`, `source`, `severity`, …; see PagerDuty's Events API v2. */
  payload?: object;
  links?: ReadonlyArray<{ href: string; text?: string }>;
  client?: string;
}

export interface PagerDutyEventsOptions {
  /** The integration's routing key: a secret, never logged or put into an error. */
  routingKey: string;
  /** The Events API's origin; events go to `<eventsUrl>/v2/enqueue`. Default `https://events.pagerduty.com`. */
  eventsUrl?: string;
  /**
   * The process's undici agent (`createHttpAgent` of `@fleet-auditor/http`: keep-alive, timeouts,
   * a body cap, the proxy); redirects are never followed.
   */
  dispatcher: Dispatcher;
  /** How 429s, 5xx and dropped connections are retried: the KEB client's policy (`@fleet-auditor/http`), 5 retries from 500 ms by default. */
  retry?: RetryOptions;
  clock?: () => number;
}

/** PagerDuty's answer to an event it refuses: `{ status: "invalid event", message, errors }`. */
const RefusalSchema = looseObject({ message: string().optional(), errors: array(string()).optional() });

/**
 * PagerDuty's Events API v2 (`POST /v2/enqueue`), sent to through undici. 2xx (PagerDuty answers
 * 202) is accepted; a 429, a 5xx or a dropped connection is retried with exponential backoff as
 * long as the wait ends before the deadline (`deadline-retry.ts`); any other 4xx (400: an invalid
 * event) is refused for good and not retried. Errors (`PagerDutyError`) carry PagerDuty's message
 * and the dedup key, never the routing key. It is the use cases' `PagerPort` (`deliverToPager`),
 * built once per cold start in `functions/pager.ts`.
 */
export class PagerDutyEvents {
  readonly #routingKey: string;
  readonly #url: URL;
  readonly #dispatcher: Dispatcher;
  readonly #retry: RetryOptions;
  readonly #clock: () => number;

  constructor(options: PagerDutyEventsOptions) {
    this.#routingKey = options.routingKey;
    const origin = (options.eventsUrl ?? "https://events.pagerduty.com").replace(/\/+$/, "");
    this.#url = new URL(`${origin}/v2/enqueue`);
    this.#dispatcher = options.dispatcher;
    this.#retry = { maxRetries: 5, baseDelayMs: 500, ...options.retry };
    this.#clock = options.clock ?? Date.now;
  }

  /** Sends one event, retrying before `deadline` (epoch ms); throws `PagerDutyError` when it is not taken. */
  async send(event: PagerDutyEvent, deadline: number): Promise<void> {
    const body = JSON.stringify({ routing_key: this.#routingKey, ...event });
    const last = await retryBeforeDeadline(() => this.#attempt(body, deadline), {
      ...this.#retry,
      deadline,
      clock: this.#clock,
    });
    if (last.ok) return;
    const { status, text, errors } = last.failure;
    const what = `the PagerDuty ${event.event_action} of ${event.dedup_key}`;
    const message =
      status === 0
        ? `${what} failed: ${text}`
        : `${what} ${last.retryable ? "kept failing" : "was refused"}: HTTP ${status} ${text}`.trim();
    throw new PagerDutyError(message, {
      status,
      action: event.event_action,
      dedupKey: event.dedup_key,
      errors,
    });
  }

  /** One POST, bounded by the deadline (`postOnce`); a refusal read as PagerDuty words it. */
  async #attempt(body: string, deadline: number): Promise<Attempted<void, Failure>> {
    const answer = await postOnce(
      { url: this.#url, headers: { "content-type": "application/json" }, body, dispatcher: this.#dispatcher },
      deadline,
      this.#clock,
      // PagerDuty has the event: a body that breaks off now must not make it send again.
      (res) => res.dump().catch(() => undefined),
      (why) => (why === "no time left" ? "no time left before the deadline" : why),
    );
    if (answer.ok) return { ok: true, value: undefined };
    const { status, text } = answer.failure;
    const failure = status === 0 ? { status, text, errors: [] } : this.#failureOf(status, text);
    return { ...answer, failure };
  }

  /** PagerDuty's refusal in words: its message and errors, cut, without the routing key. */
  #failureOf(status: number, raw: string): Failure {
    const clean = (s: string): string => redact(s, [this.#routingKey]).slice(0, 300);
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      json = undefined;
    }
    const refusal = RefusalSchema.safeParse(json);
    if (!refusal.success) return { status, text: clean(raw.trim()), errors: [] };
    const errors = (refusal.data.errors ?? []).slice(0, 10).map(clean);
    const text = [refusal.data.message ?? "", ...errors].filter(Boolean).join("; ");
    return { status, text: clean(text), errors };
  }
}

interface Failure {
  /** The HTTP status; 0 when no answer came. */
  status: number;
  /** PagerDuty's message and errors, or why no answer came. */
  text: string;
  errors: string[];
}
