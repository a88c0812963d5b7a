import { type RetryOptions, redact } from "@fleet-auditor/keb";
import { type Dispatcher, request } from "undici";
import { type Attempted, retryBeforeDeadline } from "./deadline-retry.ts";
import { SlackPostError } from "./errors.ts";

/** How a Slack client paces and retries its posts: the webhook's and the bot's alike. */
export interface SlackSenderOptions {
  /**
   * The process's undici agent (`createHttpAgent` of `@fleet-auditor/keb`: keep-alive, timeouts,
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
 * What a client makes of a 2xx answer's body. It must not throw for a body that breaks off: Slack
 * has the message by then, and only a 2xx ends the loop without posting again.
 */
export type ReadAccepted<T> = (body: Dispatcher.ResponseData["body"]) => Promise<T>;

/** An answer that was not a 2xx: its HTTP status (0 when no answer came) and Slack's text. */
interface Refusal {
  status: number;
  text: string;
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

  /** One POST, bounded by the deadline; a dropped connection or a timeout is status 0. */
  async #attempt<T>(
    req: SlackRequest,
    deadline: number,
    readAccepted: ReadAccepted<T>,
  ): Promise<Attempted<T, Refusal>> {
    const remaining = deadline - this.#clock();
    if (remaining <= 0) return noAnswer("no time left to post to Slack");
    try {
      const res = await request(req.url, {
        dispatcher: this.#dispatcher,
        method: "POST",
        headers: req.headers,
        body: req.body,
        signal: AbortSignal.timeout(remaining),
      });
      if (res.statusCode >= 200 && res.statusCode < 300)
        return { ok: true, value: await readAccepted(res.body) };
      const text = (await res.body.text().catch(() => "")).slice(0, 1_000);
      const header = res.headers["retry-after"];
      return {
        ok: false,
        failure: { status: res.statusCode, text },
        retryable: res.statusCode === 429 || res.statusCode >= 500,
        ...(header === undefined ? {} : { retryAfter: String(header) }),
      };
    } catch (err) {
      const e = err as Error & { code?: string };
      return noAnswer(
        `posting to Slack failed: ${e.name === "TimeoutError" ? "timed out" : (e.code ?? e.name)}`,
      );
    }
  }
}

const noAnswer = (reason: string): Attempted<never, Refusal> => ({
  ok: false,
  failure: { status: 0, text: reason },
  retryable: true,
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
