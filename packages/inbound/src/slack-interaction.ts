import { INCIDENT_KEY_VALUE, type IncidentButtonAction, incidentButtonAction } from "@fleet-auditor/render";
import { array, literal, looseObject, type output, string } from "zod";
import type { InboundRequest } from "./inbound-request.ts";
import { type Refusal, refuse } from "./refusal.ts";
import { slackActor } from "./slack-actor.ts";

// A click on an incident message's button, as Slack's interactivity sends it: a POST of
// `application/x-www-form-urlencoded` whose one field, `payload`, is JSON of type `block_actions`
// (docs.slack.dev, "Handling user interaction"). Parsed only after the signature was verified.

// Slack's IDs: upper-case letters and digits (T…, U…/W…, C…/G…).
const SLACK_ID = /^[A-Z0-9]{2,40}$/;
// A message's ts: seconds, a dot, microseconds.
const TS = /^[0-9]{1,12}\.[0-9]{1,9}$/;

const BlockActionsSchema = looseObject({
  type: literal("block_actions"),
  team: looseObject({ id: string().regex(SLACK_ID) }),
  user: looseObject({
    id: string().regex(SLACK_ID),
    username: string().max(500).optional(),
    name: string().max(500).optional(),
  }),
  channel: looseObject({ id: string().regex(SLACK_ID) }),
  response_url: string().max(2_000),
  actions: array(
    looseObject({
      type: literal("button"),
      action_id: string().max(255),
      value: string().max(2_000),
      block_id: string().max(255).optional(),
    }),
  ).max(25),
  message: looseObject({
    ts: string().regex(TS),
    thread_ts: string().regex(TS).optional(),
    text: string().max(40_000).optional(),
    // Passed back to Slack as they came when the message is updated: their shape is Slack's.
    blocks: array(looseObject({ type: string().max(50), block_id: string().max(255).optional() }))
      .max(50)
      .optional(),
  }).optional(),
});

/** The message a button was clicked on, as Slack sent it back. */
type ClickedMessage = NonNullable<output<typeof BlockActionsSchema>["message"]>;

/** One click on one of an incident message's buttons, from the configured workspace and channel. */
export interface SlackButtonClick {
  /** What the button asks for (`incident-buttons.ts` of render). */
  action: IncidentButtonAction;
  /** The incident's key: the button's value. */
  key: string;
  /** Who clicked, for the incident's history: `slack:U123 (alice)`. */
  by: string;
  /** The Slack user's ID, to mention them (`<@U123>`). */
  userId: string;
  /** Where the answer to the click goes (Slack's `response_url`): a secret of sorts, never logged. */
  responseUrl: string;
  /** The message clicked on, when Slack sent it (a message's buttons: always). */
  message?: ClickedMessage;
}

/** Where the click may come from, and where its answer may go. */
export interface SlackInteractionRules {
  /** The workspace (`T…`) whose clicks are honoured. */
  teamId: string;
  /** The channel (`C…`) whose messages' clicks are honoured: the bot's. */
  channelId: string;
  /** What a `response_url` must start with: `https://hooks.slack.com/` (a stand-in's in tests). */
  responseUrlPrefix: string;
}

/**
 * The click a verified request carries, or the refusal: `malformed` for anything but one form field
 * `payload` holding JSON that the schema takes as `block_actions` with exactly one button action of
 * ours (an `action_id` of `incident-buttons.ts`, a value that is an incident key) and a `response_url`
 * under `responseUrlPrefix`; `forbidden` for another workspace's or channel's click. A refusal's
 * detail names the field, never its value.
 */
export function parseSlackInteraction(
  request: InboundRequest,
  rules: SlackInteractionRules,
): SlackButtonClick | Refusal {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded(;|$)/i.test(type))
    return refuse("malformed", "Content-Type is not application/x-www-form-urlencoded");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(request.body);
  } catch {
    return refuse("malformed", "the body is not UTF-8");
  }
  const form = new URLSearchParams(text);
  const fields = [...form.keys()];
  if (fields.length !== 1 || fields[0] !== "payload")
    return refuse("malformed", "the form is not one field named payload");
  let json: unknown;
  try {
    json = JSON.parse(form.get("payload") ?? "");
  } catch {
    return refuse("malformed", "payload is not JSON");
  }
  const parsed = BlockActionsSchema.safeParse(json);
  if (!parsed.success) {
    const paths = parsed.error.issues.map((i) => i.path.join(".") || "(payload)");
    return refuse(
      "malformed",
      `payload is not block_actions as expected at ${[...new Set(paths)].join(", ")}`,
    );
  }
  const p = parsed.data;
  if (p.team.id !== rules.teamId) return refuse("forbidden", "a click from another workspace");
  if (p.channel.id !== rules.channelId) return refuse("forbidden", "a click in another channel");
  const [only, ...others] = p.actions;
  if (!only || others.length) return refuse("malformed", "payload.actions is not exactly one action");
  const action = incidentButtonAction(only.action_id);
  if (!action) return refuse("malformed", "payload.actions.0.action_id is none of the incident buttons");
  if (!INCIDENT_KEY_VALUE.test(only.value))
    return refuse("malformed", "payload.actions.0.value is not an incident key");
  if (!p.response_url.startsWith(rules.responseUrlPrefix))
    return refuse("malformed", "payload.response_url is not Slack's");
  return {
    action,
    key: only.value,
    by: slackActor(p.user),
    userId: p.user.id,
    responseUrl: p.response_url,
    ...(p.message ? { message: p.message } : {}),
  };
}
