import type { Dispatcher } from "@fleet-auditor/http";
import { boolean, looseObject, string } from "zod";
import { SlackPostError } from "./errors.ts";
import { SlackSender, type SlackSenderOptions } from "./slack-sender.ts";
import type { SlackPayload, SlackPosted } from "./slack-webhook.ts";

export interface SlackBotOptions extends SlackSenderOptions {
  /** The bot token (`xoxb-…`, scope `chat:write`): a secret, never logged or put into an error. */
  token: string;
  /** The channel to post to: its ID (`C0123ABCD`), or its name; the bot must be a member. */
  channel: string;
  /** The Web API's base URL. Default `https://slack.com/api`. */
  apiUrl?: string;
}

/** Where a post goes in a thread: under the parent's `ts`, and whether the channel sees it too. */
export interface SlackReply {
  threadTs: string;
  /** `reply_broadcast`: the reply shows in the channel as well as in its thread. */
  broadcast?: boolean;
}

// What chat.postMessage answers with HTTP 200: `ok` and the message's `ts`, or `ok: false` and
// Slack's `error` (`channel_not_found`, `not_in_channel`, `invalid_auth`, `invalid_blocks`, …).
const PostMessageAnswer = looseObject({
  ok: boolean(),
  ts: string().optional(),
  error: string().optional(),
  response_metadata: looseObject({ messages: string().array().optional() }).optional(),
});

/** A 2xx whose body broke off: Slack has the message, its `ts` is unknown. */
const BROKEN_OFF = Symbol("broken off");

/**
 * A Slack app's bot, posting through the Web API's `chat.postMessage` with `SlackSender`'s pacing
 * and retries (Slack allows about one message a second per channel). Unlike an incoming webhook
 * it learns each message's `ts`, so it can reply in a thread (`threads` is true): the use cases'
 * `deliverToSlack` keeps each incident's first post as the parent of its thread.
 *
 * The Web API refuses with HTTP 200 and `{ ok: false, error }`: that is a refusal for good, not
 * retried, and the `SlackPostError` names Slack's `error`, never the token. A 2xx whose body
 * breaks off is posted (never sent again) with no `ts`: that message cannot become a parent.
 */
export class SlackBot {
  /** A bot learns each post's `ts`: a later post can reply under it. */
  readonly threads = true;
  readonly #url: URL;
  readonly #token: string;
  readonly #channel: string;
  readonly #sender: SlackSender;

  constructor(options: SlackBotOptions) {
    const base = options.apiUrl ?? "https://slack.com/api";
    this.#url = new URL(`${base.replace(/\/+$/, "")}/chat.postMessage`);
    this.#token = options.token;
    this.#channel = options.channel;
    this.#sender = new SlackSender(options);
  }

  /**
   * Posts one message to the channel (under `reply.threadTs`, when given) and returns its `ts`,
   * or throws `SlackPostError`; `deadline` (epoch ms) bounds every retry and wait.
   */
  async post(message: SlackPayload, deadline: number, reply?: SlackReply): Promise<SlackPosted> {
    const req = {
      url: this.#url,
      headers: {
        "content-type": "application/json; charset=utf-8",
        authorization: `Bearer ${this.#token}`,
      },
      body: JSON.stringify({
        channel: this.#channel,
        text: message.text,
        blocks: message.blocks,
        ...(reply ? { thread_ts: reply.threadTs } : {}),
        ...(reply?.broadcast ? { reply_broadcast: true } : {}),
      }),
      secrets: [this.#token],
    };
    const answer = await this.#sender.send(req, deadline, readAnswer);
    if (answer === BROKEN_OFF) return {};
    return postedOf(answer);
  }
}

/** The 2xx answer's text, or `BROKEN_OFF`: never a throw, so that a 2xx is never posted again. */
async function readAnswer(body: Dispatcher.ResponseData["body"]): Promise<string | typeof BROKEN_OFF> {
  try {
    return await body.text();
  } catch {
    return BROKEN_OFF;
  }
}

/** The `ts` of an `ok` answer; a refusal, or an answer that is not the Web API's, throws. */
function postedOf(text: string): SlackPosted {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const answer = PostMessageAnswer.safeParse(json);
  // Not echoed: whatever answered in Slack's place may have echoed the request, token and all.
  if (!answer.success)
    throw new SlackPostError(
      "the Slack post got a 2xx answer that is not chat.postMessage's (is the API URL Slack's Web API?)",
      { status: 200, body: "" },
    );
  const { ok, ts, error, response_metadata } = answer.data;
  if (ok) return ts ? { ts } : {};
  // Slack's error code, and for `invalid_blocks` its own words on which block.
  const why = [error ?? "no error given", ...(response_metadata?.messages ?? [])].join(" ").slice(0, 300);
  throw new SlackPostError(`the Slack post was refused: ${why}`, { status: 200, body: why });
}
