import type { Dispatcher } from "@fleet-auditor/http";
import { type RetryOptions, redact } from "@fleet-auditor/http";
import { retryBeforeDeadline } from "./deadline-retry.ts";
import { SlackPostError } from "./errors.ts";
import { postOnce, type ReadAccepted } from "./post-once.ts";

export type { ReadAccepted } from "./post-once.ts";

/** How a Slack client paces and retries its posts: the webhook's and the bot's alike. */
export interface SlackSenderOptions {
  /**
   * The process's undici agent (`createHttpAgent` of `@fleet-auditor/http`: keep-alive, timeouts,
   * a body cap, the proxy); redirects are never followed.
   */
  dispatcher: Dispatcher;
  /** Slack allows about one message a second per webhook or channel: the least time from one answer to the next post, ms. Default 1000. */
  minIntervalMs?: number;
  /** Retries of a 429, a 5xx or a dropped connection. Default 5. */
  maxRetries?: number;
  /** The first backoff after a 5xx, doubled each time (with jitter). Default 500. */
  baseDelayMs?: number;
  clock?: () => number;
}

/** One POST: where, with which headers, what. */
export interface SlackRequest {
  url: URL;
  headers: Record<string, string>;
  body: string;
  /**
   * What must never reach an error (a token, a webhook's path): redacted wherever an answer
   * echoes it, as a proxy's error page might.
   */
  secrets: readonly string[];
}

/**
 * What every Slack client here shares: paced posts (counted from each answer), retried by
 * `retryBeforeDeadline` (`deadline-retry.ts`: a 429 after its `Retry-After`, a 5xx or a dropped
 * connection with backoff, as long as the wait ends before the deadline); any other status is
 * refused for good. A 2xx is never posted again, whatever its body does: its body goes to the
 * client's `readAccepted`.
 */
export class SlackSender {
  readonly #dispatcher: Dispatcher;
  readonly #minIntervalMs: number;
  readonly #retry: RetryOptions;
  readonly #clock: () => number;
  #lastPostAt = Number.NEGATIVE_INFINITY;

  constructor(options: SlackSenderOptions) {
    this.#dispatcher = options.dispatcher;
    this.#minIntervalMs = options.minIntervalMs ?? 1_000;
    this.#retry = { maxRetries: options.maxRetries ?? 5, baseDelayMs: options.baseDelayMs ?? 500 };
    this.#clock = options.clock ?? Date.now;
  }

  /** Posts until Slack answers 2xx (what `readAccepted` read from it), or throws `SlackPostError`. */
  async send<T>(req: SlackRequest, deadline: number, readAccepted: ReadAccepted<T>): Promise<T> {
    const wait = this.#lastPostAt + this.#minIntervalMs - this.#clock();
    if (wait > 0) await sleep(Math.min(wait, Math.max(0, deadline - this.#clock())));
    const last = await retryBeforeDeadline(
      async () => {
        const answer = await this.#attempt(req, deadline, readAccepted);
        // Counted from the answer, not the send: Slack then sees the posts at least the interval
        // apart, whatever the network did to the first one.
        this.#lastPostAt = this.#clock();
        return answer;
      },
      { ...this.#retry, deadline, clock: this.#clock },
    );
    if (last.ok) return last.value;
    const { status, text } = last.failure;
    const body = redact(text, req.secrets).slice(0, 300);
    if (status === 0) throw new SlackPostError(body, { status: 0, body: "" });
    const kind = last.retryable ? "kept failing" : "was refused";
    throw new SlackPostError(`the Slack post ${kind}: HTTP ${status} ${body}`.trim(), { status, body });
  }

  /** One POST, bounded by the deadline (`postOnce`). */
  #attempt<T>(req: SlackRequest, deadline: number, readAccepted: ReadAccepted<T>) {
    return postOnce({ ...req, dispatcher: this.#dispatcher }, deadline, this.#clock, readAccepted, (why) =>
      why === "no time left" ? "no time left to post to Slack" : `posting to Slack failed: ${why}`,
    );
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
