import { type Dispatcher, request } from "undici";
import { SlackPostError } from "./errors.ts";

/**
 * What the webhook posts: a Block Kit payload as `slackMessage` of `@fleet-auditor/render` builds
 * it (its `SlackMessage` fits). Typed by shape rather than imported: render fits its digests to
 * this package's SNS envelope, and notify importing render back would make each package depend on
 * the other.
 */
export interface SlackPayload {
  text: string;
  blocks: readonly object[];
}

export interface SlackWebhookOptions {
  /** The incoming webhook URL: a secret, never logged or put into an error. */
  url: string;
  /**
   * The process's undici agent (`createHttpAgent` of `@fleet-auditor/keb`: keep-alive, timeouts,
   * a body cap, the proxy); redirects are never followed.
   */
  dispatcher: Dispatcher;
  /** Slack allows about one message a second per webhook: the least time from one answer to the next post, ms. Default 1000. */
  minIntervalMs?: number;
  /** Retries of a 429, a 5xx or a dropped connection. Default 5. */
  maxRetries?: number;
  /** The first backoff after a 5xx, doubled each time. Default 500. */
  baseDelayMs?: number;
  clock?: () => number;
}

/**
 * A Slack incoming webhook, posted to through undici. A 429 is retried after its `Retry-After`, a
 * 5xx or a dropped connection with exponential backoff, as long as the wait ends before the
 * deadline; a 4xx is refused for good (`invalid_blocks`, `no_service`) and not retried. Errors
 * carry Slack's answer, never the URL. It is the runner's `SlackPoster` port (`deliverToSlack` in
 * the runner's `slack-delivery.ts`), built once per cold start in `functions/slack.ts`.
 *
 * Retried here, not by undici's retry interceptor: a POST is not idempotent, and that handler
 * would send it again to resume a 2xx whose body broke off; here a 2xx is posted, whatever its
 * body does, and the policy (500 retried, `Retry-After` as Slack gives it, pacing) is Slack's.
 */
export class SlackWebhook {
  readonly #url: URL;
  readonly #dispatcher: Dispatcher;
  readonly #minIntervalMs: number;
  readonly #maxRetries: number;
  readonly #baseDelayMs: number;
  readonly #clock: () => number;
  #lastPostAt = Number.NEGATIVE_INFINITY;

  constructor(options: SlackWebhookOptions) {
    this.#url = new URL(options.url);
    this.#dispatcher = options.dispatcher;
    this.#minIntervalMs = options.minIntervalMs ?? 1_000;
    this.#maxRetries = options.maxRetries ?? 5;
    this.#baseDelayMs = options.baseDelayMs ?? 500;
    this.#clock = options.clock ?? Date.now;
  }

  async post(message: SlackPayload, deadline: number): Promise<void> {
    const wait = this.#lastPostAt + this.#minIntervalMs - this.#clock();
    if (wait > 0) await sleep(Math.min(wait, Math.max(0, deadline - this.#clock())));
    const body = JSON.stringify(message);
    for (let attempt = 0; ; attempt++) {
      const answer = await this.#attempt(body, deadline);
      // Counted from the answer, not the send: Slack then sees the posts at least the interval
      // apart, whatever the network did to the first one.
      this.#lastPostAt = this.#clock();
      if (answer.status >= 200 && answer.status < 300) return;
      const retryable = answer.status === 0 || answer.status === 429 || answer.status >= 500;
      const delay =
        answer.status === 429 && answer.retryAfterS !== undefined
          ? answer.retryAfterS * 1000
          : this.#baseDelayMs * 2 ** attempt;
      if (!retryable || attempt >= this.#maxRetries || this.#clock() + delay >= deadline) {
        throw failure(answer);
      }
      await sleep(delay);
    }
  }

  /** One POST, bounded by the deadline; a dropped connection or a timeout is status 0. */
  async #attempt(body: string, deadline: number): Promise<Answer> {
    const remaining = deadline - this.#clock();
    if (remaining <= 0) return { status: 0, body: "", reason: "no time left to post to Slack" };
    try {
      const res = await request(this.#url, {
        dispatcher: this.#dispatcher,
        method: "POST",
        headers: { "content-type": "application/json; charset=utf-8" },
        body,
        signal: AbortSignal.timeout(remaining),
      });
      if (res.statusCode >= 200 && res.statusCode < 300) {
        // Slack has the message: a body that breaks off now must not make it post again.
        await res.body.dump().catch(() => undefined);
        return { status: res.statusCode, body: "" };
      }
      const text = (await res.body.text().catch(() => "")).slice(0, 300);
      const header = res.headers["retry-after"];
      const after = Number(Array.isArray(header) ? header[0] : header);
      return {
        status: res.statusCode,
        body: text,
        ...(header !== undefined && Number.isFinite(after) && after >= 0 ? { retryAfterS: after } : {}),
      };
    } catch (err) {
      const e = err as Error & { code?: string };
      const reason = e.name === "TimeoutError" ? "timed out" : (e.code ?? e.name);
      return { status: 0, body: "", reason: `posting to Slack failed: ${reason}` };
    }
  }
}

interface Answer {
  status: number;
  body: string;
  retryAfterS?: number;
  /** Why no answer came (status 0); never the URL. */
  reason?: string;
}

function failure(a: Answer): SlackPostError {
  if (a.status === 0)
    return new SlackPostError(a.reason ?? "posting to Slack failed", { status: 0, body: "" });
  const kind = a.status === 429 || a.status >= 500 ? "kept failing" : "was refused";
  return new SlackPostError(`the Slack post ${kind}: HTTP ${a.status} ${a.body}`.trim(), a);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
