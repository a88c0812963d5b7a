import type { SlackMessage } from "@fleet-auditor/audit";
import { SlackPostError } from "./errors.ts";

export interface SlackWebhookOptions {
  /** The incoming webhook URL: a secret, never logged or put into an error. */
  url: string;
  /** Slack allows about one message a second per webhook: the least time from one answer to the next post, ms. Default 1000. */
  minIntervalMs?: number;
  /** Retries of a 429, a 5xx or a dropped connection. Default 5. */
  maxRetries?: number;
  /** The first backoff after a 5xx, doubled each time. Default 500. */
  baseDelayMs?: number;
  clock?: () => number;
  /** Default: the runtime's `fetch` (Node's built-in undici). */
  fetch?: typeof fetch;
}

/**
 * A Slack incoming webhook. A 429 is retried after its `Retry-After`, a 5xx or a dropped
 * connection with exponential backoff, as long as the wait ends before the deadline; a 4xx is
 * refused for good (`invalid_blocks`, `no_service`) and not retried. Errors carry Slack's answer,
 * never the URL. It is the runner's `SlackPoster` port.
 *
 * On the runtime's own `fetch` rather than the undici package: the package would add 736 KB to a
 * function whose budget is 600 KB, for one POST whose retry policy (deadline, Retry-After) is this
 * product's own either way.
 */
export class SlackWebhook {
  readonly #url: string;
  readonly #minIntervalMs: number;
  readonly #maxRetries: number;
  readonly #baseDelayMs: number;
  readonly #clock: () => number;
  readonly #fetch: typeof fetch;
  #lastPostAt = Number.NEGATIVE_INFINITY;

  constructor(options: SlackWebhookOptions) {
    this.#url = options.url;
    this.#minIntervalMs = options.minIntervalMs ?? 1_000;
    this.#maxRetries = options.maxRetries ?? 5;
    this.#baseDelayMs = options.baseDelayMs ?? 500;
    this.#clock = options.clock ?? Date.now;
    this.#fetch = options.fetch ?? fetch;
  }

  async post(message: SlackMessage, deadline: number): Promise<void> {
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
      const res = await this.#fetch(this.#url, {
        method: "POST",
        headers: { "content-type": "application/json; charset=utf-8" },
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(remaining),
      });
      const text = (await res.text()).slice(0, 300);
      const after = Number(res.headers.get("retry-after"));
      return {
        status: res.status,
        body: text,
        ...(Number.isFinite(after) && after >= 0 && res.headers.has("retry-after")
          ? { retryAfterS: after }
          : {}),
      };
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      const reason = e.name === "TimeoutError" ? "timed out" : (e.cause?.code ?? e.name);
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
