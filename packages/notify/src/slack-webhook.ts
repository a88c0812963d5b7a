import { SlackSender, type SlackSenderOptions } from "./slack-sender.ts";

/**
 * What the Slack clients post: a Block Kit payload as `slackMessage` of `@fleet-auditor/render`
 * builds it (its `SlackMessage` fits). Typed by shape rather than imported: render fits its
 * digests to this package's SNS envelope, and notify importing render back would make each
 * package depend on the other.
 */
export interface SlackPayload {
  text: string;
  blocks: readonly object[];
}

/** What a post gave back: the message's `ts` where the client learns it (the bot; never a webhook). */
export interface SlackPosted {
  ts?: string;
}

export interface SlackWebhookOptions extends SlackSenderOptions {
  /** The incoming webhook URL: a secret, never logged or put into an error. */
  url: string;
}

/**
 * A Slack incoming webhook, posted to through undici with `SlackSender`'s pacing and retries: a
 * 429 after its `Retry-After`, a 5xx or a dropped connection with backoff before the deadline; a
 * 4xx is refused for good (`invalid_blocks`, `no_service`) and not retried. Errors carry Slack's
 * answer, never the URL. It is the use cases' `SlackPoster` port (`deliverToSlack` in the use cases'
 * `slack-delivery.ts`), built once per cold start in `functions/slack.ts`.
 *
 * It cannot thread: an incoming webhook answers `ok` and no `ts`, so there is no parent to reply
 * to (`threads` is false); `SlackBot` can.
 */
export class SlackWebhook {
  /** An incoming webhook returns no `ts`: each message is a post of its own. */
  readonly threads = false;
  readonly #url: URL;
  readonly #sender: SlackSender;

  constructor(options: SlackWebhookOptions) {
    this.#url = new URL(options.url);
    this.#sender = new SlackSender(options);
  }

  /** Posts one message, or throws `SlackPostError`; `deadline` (epoch ms) bounds every retry. */
  async post(message: SlackPayload, deadline: number): Promise<SlackPosted> {
    const req = {
      url: this.#url,
      headers: { "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify(message),
      secrets: [this.#url.pathname],
    };
    // Slack has the message once it answers 2xx: a body that breaks off now must not make it
    // post again.
    await this.#sender.send(req, deadline, (body) => body.dump().catch(() => undefined));
    return {};
  }
}
