import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { refusal } from "./fake-slack.ts";
import { answerFault, type HttpFault } from "./http-fault.ts";
import { forTheFile, onLoopback } from "./loopback.ts";

/** A fault of the stand-in; `afterPosting`: the message is kept first, then the fault answers. */
interface SlackApiFault extends HttpFault {
  afterPosting?: boolean;
}

/** A message the stand-in keeps, as Slack would show it. */
interface SlackApiMessage {
  channel: string;
  ts: string;
  /** The parent's `ts`: a reply in its thread. */
  threadTs?: string;
  /** `reply_broadcast`: a reply the channel sees too. */
  broadcast: boolean;
  text: string;
  blocks: unknown[];
}

/** What an app posted to a click's `response_url`, and whether the stand-in took it. */
interface SlackActionResponse {
  /** The `ts` of the message whose click gave the URL. */
  ts: string;
  status: number;
  body: Record<string, unknown>;
  problem?: string;
}

/** A call as the stand-in saw it: its HTTP status and, for a refusal, Slack's `error`. */
interface SlackApiAttempt {
  at: number;
  status: number;
  error?: string;
  authorization?: string;
}

export interface FakeSlackApi {
  /** The Web API's base URL (`SLACK_API_URL`): `<apiUrl>/chat.postMessage`. */
  apiUrl: string;
  /** The bot token it accepts. */
  token: string;
  /** The channel the bot is a member of. */
  channel: string;
  /** A channel that exists, without the bot in it. */
  otherChannel: string;
  faults: SlackApiFault[];
  attempts: SlackApiAttempt[];
  /** Every message kept, in order. */
  messages: SlackApiMessage[];
  /** The channel's own messages: parents and lone posts, not replies. */
  topLevel(): SlackApiMessage[];
  /** The replies under a parent, in order. */
  replies(ts: string): SlackApiMessage[];
  /**
   * A `response_url` for a click on the message `ts`, as Slack gives one in a click's payload: a
   * POST of JSON to it with `replace_original` replaces that message's text and blocks; with
   * `response_type: "ephemeral"` it is a word to the user who clicked, kept in `responses` only.
   */
  responseUrl(ts: string): string;
  /** What was posted to response URLs, in order. */
  responses: SlackActionResponse[];
  reset(): void;
  close(): Promise<void>;
}

const TOKEN = "xoxb-000-fleet-SeCrEtBoTtOkEn42";
const CHANNEL = "C0FLEETALERTS";
const OTHER = "C0NOTAMEMBER";

/**
 * Slack's Web API on loopback, `chat.postMessage` and the `response_url`s of clicks on its messages
 * (`responseUrl`), refusing as Slack does (HTTP 200,
 * `{ ok: false, error }`): `not_authed` and `invalid_auth` for the bearer token,
 * `channel_not_found` and `not_in_channel`, `no_text`, `invalid_blocks` (what the webhook
 * stand-in refuses, with its reason in `response_metadata.messages`). It gives each message a
 * `ts` and keeps threads: a `thread_ts` must be a parent's `ts` in that channel. Slack does not
 * document what it does with one it never gave; the stand-in refuses it (`thread_not_found`), so
 * that a reply to a wrong `ts` fails a test instead of passing as a post. Faults answer in order.
 */
async function startFakeSlackApi(): Promise<FakeSlackApi> {
  const attempts: SlackApiAttempt[] = [];
  const faults: SlackApiFault[] = [];
  const messages: SlackApiMessage[] = [];
  const responses: SlackActionResponse[] = [];
  const responseUrls = new Map<string, string>();
  let seq = 0;
  const server = createServer((req, res) => void handle(req, res));
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const attempt: SlackApiAttempt = { at: Date.now(), status: 200 };
    if (req.headers.authorization) attempt.authorization = req.headers.authorization;
    attempts.push(attempt);
    const clicked = req.method === "POST" ? responseUrls.get(req.url ?? "") : undefined;
    if (clicked !== undefined) {
      const answer = respond(clicked, Buffer.concat(chunks).toString("utf8"));
      attempt.status = answer.status;
      res.writeHead(answer.status, { "content-type": "application/json" }).end(answer.text);
      return;
    }
    if (req.method !== "POST" || req.url !== "/api/chat.postMessage") {
      attempt.status = 404;
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    let fault = faults[0]?.afterPosting ? undefined : faults.shift();
    if (fault) {
      attempt.status = fault.status;
      answerFault(res, fault, "application/json");
      return;
    }
    const answer = post(req, Buffer.concat(chunks).toString("utf8"));
    if (!answer.ok) attempt.error = String(answer.error);
    fault = faults.shift();
    if (fault) {
      attempt.status = fault.status;
      answerFault(res, { ...fault, body: fault.body ?? JSON.stringify(answer) }, "application/json");
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
  };

  /** chat.postMessage: the message kept and its `ts`, or Slack's refusal. */
  const post = (req: IncomingMessage, text: string): Record<string, unknown> => {
    const auth = req.headers.authorization;
    if (!auth) return { ok: false, error: "not_authed" };
    if (auth !== `Bearer ${TOKEN}`) return { ok: false, error: "invalid_auth" };
    if (!String(req.headers["content-type"]).startsWith("application/json"))
      return { ok: false, error: "invalid_arguments" };
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return { ok: false, error: "invalid_json" };
    }
    if (body.channel === OTHER) return { ok: false, error: "not_in_channel" };
    if (body.channel !== CHANNEL) return { ok: false, error: "channel_not_found" };
    if (typeof body.text !== "string" || body.text === "") return { ok: false, error: "no_text" };
    const problem = refusal(body);
    if (problem) return { ok: false, error: "invalid_blocks", response_metadata: { messages: [problem] } };
    const threadTs = typeof body.thread_ts === "string" ? body.thread_ts : undefined;
    if (body.thread_ts !== undefined && !messages.some((m) => m.ts === threadTs && !m.threadTs))
      return { ok: false, error: "thread_not_found" };
    seq++;
    const ts = `${1_764_000_000 + seq}.${String(seq).padStart(6, "0")}`;
    messages.push({
      channel: CHANNEL,
      ts,
      ...(threadTs ? { threadTs } : {}),
      broadcast: body.reply_broadcast === true,
      text: body.text,
      blocks: body.blocks as unknown[],
    });
    return { ok: true, channel: CHANNEL, ts, message: { type: "message", text: body.text, ts } };
  };

  /**
   * A response to a click on message `ts`: JSON with `text`; `replace_original` (Slack's default
   * for a message's click is to post anew, so it is read as given) replaces the message, whose
   * blocks must be what `chat.postMessage` would take; an ephemeral one changes nothing shown.
   */
  const respond = (ts: string, text: string): { status: number; text: string } => {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      responses.push({ ts, status: 400, body: {}, problem: "invalid_json" });
      return { status: 400, text: JSON.stringify({ ok: false, error: "invalid_json" }) };
    }
    const problem =
      typeof body.text !== "string" || body.text === ""
        ? "no_text"
        : body.blocks !== undefined
          ? refusal(body)
          : undefined;
    if (problem) {
      responses.push({ ts, status: 400, body, problem });
      return { status: 400, text: JSON.stringify({ ok: false, error: "invalid_blocks" }) };
    }
    responses.push({ ts, status: 200, body });
    const message = messages.find((m) => m.ts === ts);
    if (body.replace_original === true && body.response_type !== "ephemeral" && message) {
      message.text = body.text as string;
      message.blocks = (body.blocks as unknown[] | undefined) ?? [];
    }
    return { status: 200, text: JSON.stringify({ ok: true }) };
  };

  const { origin, close } = await onLoopback(server);
  return {
    apiUrl: `${origin}/api`,
    token: TOKEN,
    channel: CHANNEL,
    otherChannel: OTHER,
    faults,
    attempts,
    messages,
    topLevel: () => messages.filter((m) => !m.threadTs),
    replies: (ts) => messages.filter((m) => m.threadTs === ts),
    responseUrl: (ts) => {
      const path = `/actions/T0FLEETTEAM/${responseUrls.size + 1}/${crypto.randomUUID().replace(/-/g, "")}`;
      responseUrls.set(path, ts);
      return `${origin}${path}`;
    },
    responses,
    reset: () => {
      faults.length = 0;
      attempts.length = 0;
      messages.length = 0;
      responses.length = 0;
    },
    close,
  };
}

/** A Slack Web API stand-in for one test file. */
export function useFakeSlackApi(): { api: FakeSlackApi } {
  return forTheFile("api", startFakeSlackApi);
}
