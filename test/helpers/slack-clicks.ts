import { createHmac, randomUUID } from "node:crypto";
import type { LambdaFunctionURLEvent } from "aws-lambda";
import { functionUrlEvent as urlEvent } from "./function-url-event.ts";

// A button click as Slack sends it to an app's interactivity Request URL, built from Slack's
// documentation rather than from the product's code, so that a test signs as Slack does and not as
// the verifier expects:
// - "Handling user interaction" (docs.slack.dev): the request is a POST of
//   `application/x-www-form-urlencoded` whose one field `payload` is JSON; a click on a message's
//   button is of type `block_actions`, with `team`, `user`, `channel`, `container`, `message` (the
//   message as posted, its blocks), `response_url` and `actions` (the one clicked: its
//   `action_id`, `block_id`, `value`, `type: "button"`, `action_ts`).
// - "Verifying requests from Slack" (docs.slack.dev): "Concatenate the version number, the
//   timestamp, and the body of the request to form a basestring. Use a colon as the delimiter
//   between the three elements"; "hash the above basestring, using the Slack Signing Secret as the
//   key" (HMAC-SHA256, hex); `X-Slack-Signature` is `v0=` and that hash,
//   `X-Slack-Request-Timestamp` the Unix seconds it was sent at.
// And a Lambda function URL delivers it as the API Gateway payload format 2.0: lower-case header
// names, the body as text or base64 (`isBase64Encoded`).

/** The signing secret the tests' Slack app has (Slack's documentation's example secret). */
export const SIGNING_SECRET = "8f742231b10e8888abcd99yyyzzz85a5";
/** The workspace and channel the tests' bot posts to. */
export const TEAM = "T0FLEETTEAM";
export const CHANNEL = "C0FLEETALERTS";

/** A click's parts that tests vary. */
export interface ClickSpec {
  actionId?: string;
  value?: string;
  team?: string;
  channel?: string;
  user?: { id: string; username?: string; name?: string };
  /** Where Slack says the answer goes: a stand-in's response URL in tests. */
  responseUrl: string;
  /** The message clicked on: its blocks as posted (the bot's incident message). */
  message?: { ts: string; thread_ts?: string; text: string; blocks: unknown[] };
  /** More actions in the one payload (Slack sends one; a forger may not). */
  moreActions?: number;
}

/** The `block_actions` payload of a click, as Slack shapes it. */
export function blockActions(spec: ClickSpec): Record<string, unknown> {
  const team = spec.team ?? TEAM;
  const channel = spec.channel ?? CHANNEL;
  const message = spec.message ?? { ts: "1764000001.000001", text: "an incident", blocks: [] };
  const action = {
    type: "button",
    action_id: spec.actionId ?? "fleet-auditor.ack",
    block_id: "fleet-auditor.incident",
    text: { type: "plain_text", text: "Acknowledge", emoji: true },
    value: spec.value ?? "inc-AAAAAAAAAAAAAAAAAAAAAAAA",
    style: "primary",
    action_ts: `${Math.floor(Date.now() / 1000)}.123456`,
  };
  return {
    type: "block_actions",
    user: { ...(spec.user ?? { id: "U0ALICE", username: "alice", name: "alice" }), team_id: team },
    api_app_id: "A0FLEETAPP",
    token: "verification-token-deprecated",
    container: { type: "message", message_ts: message.ts, channel_id: channel, is_ephemeral: false },
    trigger_id: `${Date.now()}.1234.${randomUUID().replace(/-/g, "")}`,
    team: { id: team, domain: "fleet" },
    enterprise: null,
    is_enterprise_install: false,
    channel: { id: channel, name: "fleet-alerts" },
    message: { type: "message", user: "U0FLEETBOT", bot_id: "B0FLEETBOT", ...message },
    state: { values: {} },
    response_url: spec.responseUrl,
    actions: Array.from({ length: 1 + (spec.moreActions ?? 0) }, () => action),
  };
}

/** The body Slack posts: the form with its one field. */
export function formBody(payload: unknown): string {
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

/** Slack's signature of a body at a time, as its documentation computes it. */
export function slackSignature(body: string | Buffer, timestamp: string, secret = SIGNING_SECRET): string {
  const basestring = Buffer.concat([Buffer.from(`v0:${timestamp}:`), Buffer.from(body)]);
  return `v0=${createHmac("sha256", secret).update(basestring).digest("hex")}`;
}

/** A request as it reaches the function: its headers (as Slack sends them) and body. */
export interface SignedRequest {
  headers: Record<string, string>;
  body: string;
}

/** A click signed as Slack signs it, now (or at `at`, Unix seconds), with `secret`. */
export function signedClick(
  payload: unknown,
  options: { at?: number; secret?: string; body?: string } = {},
): SignedRequest {
  const body = options.body ?? formBody(payload);
  const timestamp = String(options.at ?? Math.floor(Date.now() / 1000));
  return {
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "User-Agent": "Slackbot 1.0 (+https://api.slack.com/robots)",
      "X-Slack-Request-Timestamp": timestamp,
      "X-Slack-Signature": slackSignature(body, timestamp, options.secret),
    },
    body,
  };
}

/** A signed request as its function URL hands it over (`function-url-event.ts`): a POST unless `method` says otherwise. */
export function functionUrlEvent(
  request: SignedRequest,
  options: { base64?: boolean; method?: string } = {},
): LambdaFunctionURLEvent {
  return urlEvent(
    { ...(options.method ? { method: options.method } : {}), headers: request.headers, body: request.body },
    { base64: options.base64 === true },
  );
}
