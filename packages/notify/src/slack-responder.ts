import type { Dispatcher } from "@fleet-auditor/http";
import { SlackSender } from "./slack-sender.ts";

/**
 * What an app sends to a click's `response_url` (docs.slack.dev, "Handling user interaction"): a
 * message that replaces the one clicked on (`replace_original`, its blocks whole), or one only the
 * user who clicked sees (`response_type: "ephemeral"`, `replace_original: false`).
 */
export interface SlackResponse {
  text: string;
  blocks?: readonly object[];
  replace_original: boolean;
  response_type?: "ephemeral" | "in_channel";
}

/**
 * Answers Slack clicks through their `response_url`: a POST of JSON, through the process's undici
 * agent, retried once after a 429, a 5xx or a dropped connection while the deadline allows (a click
 * wants its answer within Slack's three seconds). A `response_url` lets anyone who has it post into
 * the channel for half an hour: it is redacted wherever an answer echoes it, and never put in an
 * error. Refusals and failures throw `SlackPostError`.
 */
export class SlackResponder {
  readonly #sender: SlackSender;

  constructor(options: { dispatcher: Dispatcher; clock?: () => number }) {
    // No pacing: each click has its own URL, and one answer each.
    this.#sender = new SlackSender({ ...options, minIntervalMs: 0, maxRetries: 1, baseDelayMs: 200 });
  }

  /** Posts the response; `deadline` (epoch ms) bounds it and its retry. */
  async respond(responseUrl: string, response: SlackResponse, deadline: number): Promise<void> {
    const url = new URL(responseUrl);
    await this.#sender.send(
      {
        url,
        headers: { "content-type": "application/json; charset=utf-8" },
        body: JSON.stringify(response),
        secrets: [url.pathname],
      },
      deadline,
      (body) => body.dump().catch(() => undefined),
    );
  }
}
