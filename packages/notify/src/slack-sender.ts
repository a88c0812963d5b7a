import { type Dispatcher, request } from "undici";
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
  /** The first backoff after a 5xx, doubled each time. Default 500. */
  baseDelayMs?: number;
  clock?: () => number;
}

/** One POST: where, with which headers, what. */
export interface SlackRequest {
  url: URL;
  headers: Record<string, string>;
  body: string;
  /**
   * What must never reach an error (a token, a webhook's path): replaced by `[secret]` wherever
   * an answer echoes it, as a proxy's error page might.
   */
  secrets: readonly string[];
}

/**
 * What a client makes of a 2xx answer's body. It must not throw for a body that breaks off: Slack
 * has the message by then, and only a 2xx ends the loop without posting again.
 */
export type ReadAccepted<T> = (body: Dispatcher.ResponseData["body"]) => Promise<T>;

/**
 * The loop every Slack client here shares: paced posts, a 429 retried after its `Retry-After`, a
 * 5xx or a dropped connection with exponential backoff, as long as the wait ends before the
 * deadline; any other status refused for good. A 2xx is never posted again, whatever its body
 * does: its body goes to the client's `readAccepted`.
 *
 * Retried here, not by undici's retry interceptor: a POST is not idempotent, and that handler
 * would send it again to resume a 2xx whose body broke off; the policy (500 retried,
 * `Retry-After` as Slack gives it, pacing) is Slack's.
 */
export class SlackSender {
  readonly #dispatcher: Dispatcher;
  readonly #minIntervalMs: number;
  readonly #maxRetries: number;
  readonly #baseDelayMs: number;
  readonly #clock: () => number;
  #lastPostAt = Number.NEGATIVE_INFINITY;

  constructor(options: SlackSenderOptions) {
    this.#dispatcher = options.dispatcher;
    this.#minIntervalMs = options.minIntervalMs ?? 1_000;
    this.#maxRetries = options.maxRetries ?? 5;
    this.#baseDelayMs = options.baseDelayMs ?? 500;
    this.#clock = options.clock ?? Date.now;
  }

  /** Posts until Slack answers 2xx (what `readAccepted` read from it), or throws `SlackPostError`. */
  async send<T>(req: SlackRequest, deadline: number, readAccepted: ReadAccepted<T>): Promise<T> {
    const wait = this.#lastPostAt + this.#minIntervalMs - this.#clock();
    if (wait > 0) await sleep(Math.min(wait, Math.max(0, deadline - this.#clock())));
    for (let attempt = 0; ; attempt++) {
      const answer = await this.#attempt(req, deadline, readAccepted);
      // Counted from the answer, not the send: Slack then sees the posts at least the interval
      // apart, whatever the network did to the first one.
      this.#lastPostAt = this.#clock();
      if ("accepted" in answer) return answer.accepted;
      const retryable = answer.status === 0 || answer.status === 429 || answer.status >= 500;
      const delay =
        answer.status === 429 && answer.retryAfterS !== undefined
          ? answer.retryAfterS * 1000
          : this.#baseDelayMs * 2 ** attempt;
      if (!retryable || attempt >= this.#maxRetries || this.#clock() + delay >= deadline) {
        throw failure(answer, req.secrets);
      }
      await sleep(delay);
    }
  }

  /** One POST, bounded by the deadline; a dropped connection or a timeout is status 0. */
  async #attempt<T>(
    req: SlackRequest,
    deadline: number,
    readAccepted: ReadAccepted<T>,
  ): Promise<{ accepted: T } | Refusal> {
    const remaining = deadline - this.#clock();
    if (remaining <= 0) return { status: 0, body: "", reason: "no time left to post to Slack" };
    try {
      const res = await request(req.url, {
        dispatcher: this.#dispatcher,
        method: "POST",
        headers: req.headers,
        body: req.body,
        signal: AbortSignal.timeout(remaining),
      });
      if (res.statusCode >= 200 && res.statusCode < 300) return { accepted: await readAccepted(res.body) };
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

/** An answer that was not a 2xx. */
interface Refusal {
  /** The HTTP status; 0 when no answer came. */
  status: number;
  body: string;
  retryAfterS?: number;
  /** Why no answer came (status 0); never the URL. */
  reason?: string;
}

function failure(a: Refusal, secrets: readonly string[]): SlackPostError {
  if (a.status === 0)
    return new SlackPostError(a.reason ?? "posting to Slack failed", { status: 0, body: "" });
  const kind = a.status === 429 || a.status >= 500 ? "kept failing" : "was refused";
  const body = secrets.reduce((text, s) => (s.length >= 8 ? text.replaceAll(s, "[secret]") : text), a.body);
  return new SlackPostError(`the Slack post ${kind}: HTTP ${a.status} ${body}`.trim(), { ...a, body });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
