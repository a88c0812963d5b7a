import type { SlackMessage } from "@fleet-auditor/audit";
import { Agent, type Dispatcher, interceptors, request } from "undici";
import { SlackPostError } from "./errors.ts";

/** Posts one message to Slack or throws; `deadline` (epoch ms) bounds every retry and wait. */
export interface SlackPoster {
  post(message: SlackMessage, deadline: number): Promise<void>;
}

export interface SlackWebhookOptions {
  /** The incoming webhook URL: a secret, never logged or put into an error. */
  url: string;
  dispatcher?: Dispatcher;
  /** Slack allows about one message a second per webhook. Default 1000. */
  minIntervalMs?: number;
  /** Retries of a 429 or 5xx answer. Default 5. */
  maxRetries?: number;
  /** The first backoff after a 5xx, doubled each time. Default 500. */
  baseDelayMs?: number;
  clock?: () => number;
}

/**
 * A Slack incoming webhook. A 429 is retried after its `Retry-After`, a 5xx or a dropped
 * connection with exponential backoff, as long as the wait ends before the deadline; a 4xx is
 * refused for good (`invalid_blocks`, `no_service`) and not retried. Errors carry Slack's answer,
 * never the URL.
 */
export class SlackWebhook implements SlackPoster {
  readonly #url: string;
  readonly #dispatcher: Dispatcher;
  readonly #minIntervalMs: number;
  readonly #maxRetries: number;
  readonly #baseDelayMs: number;
  readonly #clock: () => number;
  #lastPostAt = Number.NEGATIVE_INFINITY;

  constructor(options: SlackWebhookOptions) {
    this.#url = options.url;
    this.#dispatcher = (options.dispatcher ?? new Agent({ connect: { timeout: 5_000 } })).compose(
      interceptors.retry({ throwOnError: false, methods: ["POST"] }),
    );
    this.#minIntervalMs = options.minIntervalMs ?? 1_000;
    this.#maxRetries = options.maxRetries ?? 5;
    this.#baseDelayMs = options.baseDelayMs ?? 500;
    this.#clock = options.clock ?? Date.now;
  }

  async post(message: SlackMessage, deadline: number): Promise<void> {
    const wait = this.#lastPostAt + this.#minIntervalMs - this.#clock();
    if (wait > 0) await sleep(Math.min(wait, Math.max(0, deadline - this.#clock())));
    this.#lastPostAt = this.#clock();
    const remaining = deadline - this.#clock();
    if (remaining <= 0) throw new SlackPostError("no time left to post to Slack", { status: 0, body: "" });
    let status = 0;
    let body = "";
    try {
      const res = await request(this.#url, {
        method: "POST",
        headers: { "content-type": "application/json; charset=utf-8" },
        body: JSON.stringify(message),
        dispatcher: this.#dispatcher,
        signal: AbortSignal.timeout(remaining),
        // Per request: the retry policy knows this post's deadline.
        retryOptions: { retry: this.#retryPolicy(deadline) },
      } as Parameters<typeof request>[1]);
      status = res.statusCode;
      body = (await res.body.text()).slice(0, 300);
    } catch (err) {
      const why = (err as Error).name === "TimeoutError" ? "timed out" : (err as Error).message;
      throw new SlackPostError(`posting to Slack failed: ${why}`, { status: 0, body: "" });
    }
    if (status >= 200 && status < 300) return;
    const kind = status === 429 || status >= 500 ? "kept failing" : "was refused";
    throw new SlackPostError(`the Slack post ${kind}: HTTP ${status} ${body}`.trim(), { status, body });
  }

  /** undici's retry decision, bounded by the deadline and this webhook's retry budget. */
  #retryPolicy(deadline: number) {
    return (
      err: Error & { statusCode?: number; code?: string; headers?: Record<string, string | string[]> },
      { state }: { state: { counter: number } },
      cb: (err?: Error | null) => void,
    ): NodeJS.Timeout | undefined => {
      const status = err.statusCode;
      const retryable =
        status === 429 || (status !== undefined && status >= 500) || (status === undefined && isNetwork(err));
      if (!retryable || state.counter > this.#maxRetries) {
        cb(err);
        return undefined;
      }
      const header = err.headers?.["retry-after"];
      const after = Number(Array.isArray(header) ? header[0] : header);
      const delay =
        status === 429 && Number.isFinite(after) && after >= 0
          ? after * 1000
          : this.#baseDelayMs * 2 ** (state.counter - 1);
      if (this.#clock() + delay >= deadline) {
        cb(err);
        return undefined;
      }
      return setTimeout(() => cb(null), delay);
    };
  }
}

const NETWORK = new Set(["ECONNRESET", "ECONNREFUSED", "EPIPE", "UND_ERR_SOCKET", "ETIMEDOUT"]);
function isNetwork(err: { code?: string }): boolean {
  return err.code !== undefined && NETWORK.has(err.code);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
