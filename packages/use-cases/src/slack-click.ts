import {
  type FunctionUrlEvent,
  inboundRequest,
  isRefusal,
  parseSlackInteraction,
  REFUSAL_STATUS,
  type Refusal,
  type RefusalReason,
  type SlackButtonClick,
  verifySlackSignature,
} from "@fleet-auditor/inbound";
import { clickedMessageUpdate, unknownIncidentWord } from "./slack-click-answer.ts";
import type { ClickAction, ClickResponse, SlackClickDeps } from "./slack-click-ports.ts";

/**
 * The largest body taken. A click's payload carries the whole message clicked on (up to 50 blocks
 * of this product's Block Kit, form-encoded: an incident message of a few groups is 5 to 20 KB, a
 * full roll-up can pass 100 KB); anything past this is no click of ours, refused before it is hashed.
 */
export const SLACK_CLICK_MAX_BYTES = 256 * 1024;

/** The function URL's answer, and what happened (the metric's and log's words). */
export interface SlackClickAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  /** What the click did, or why it was refused. */
  outcome: "applied" | "already" | RefusalReason;
  /** The refusal's detail, for the log (never a value from the request). */
  detail?: string;
}

/**
 * Answers one request to the Slack actions function URL:
 * 1. take the request, its body capped (`too-large`, 413) before anything else;
 * 2. verify Slack's signature with the signing secret (`unsigned`, `bad-signature`, `stale`: 401);
 * 3. only then parse the click (`malformed` 400; another workspace or channel, `forbidden` 403);
 * 4. ask the core to acknowledge the incident, or silence it for 4 or 24 hours, by the user;
 * 5. answer the click through its `response_url`: the message clicked on shows who did what in
 *    place of its buttons; a key with no open incident (`unknown-incident`) gets a word only the
 *    user sees; then 200.
 *
 * Nothing reaches the core before step 4: a refused request changes nothing. Two identical clicks
 * at once both reach the core, which applies one (`already` for the other). A failed answer to the
 * click is logged, not thrown: the action was applied, and the incident's thread says so.
 * `nowMs` is the clock; `deadline` bounds the answer to Slack.
 */
export async function answerSlackClick(
  deps: SlackClickDeps,
  event: FunctionUrlEvent,
  nowMs: number,
  deadline: number,
): Promise<SlackClickAnswer> {
  const request = inboundRequest(event, SLACK_CLICK_MAX_BYTES);
  if (isRefusal(request)) return refused(request);
  const signingSecret = await deps.signingSecret();
  const unsigned = verifySlackSignature(request, { signingSecret, nowSeconds: Math.floor(nowMs / 1000) });
  if (unsigned) return refused(unsigned);
  const click = parseSlackInteraction(request, deps.rules);
  if (isRefusal(click)) return refused(click);
  const acted = await deps.act(actionOf(click));
  const at = new Date(nowMs).toISOString();
  if (acted.outcome === "unknown") {
    await answerClick(deps, click, unknownIncidentWord(click.key), deadline);
    return {
      ...answer(200, ""),
      outcome: "unknown-incident",
      detail: "no open incident has the clicked key",
    };
  }
  await answerClick(deps, click, clickedMessageUpdate(click, acted, at), deadline);
  return { ...answer(200, ""), outcome: acted.outcome };
}

/** The core's action for a click: an acknowledgement, or a silence for the button's hours. */
function actionOf(click: SlackButtonClick): ClickAction {
  const { key, by } = click;
  return click.action.kind === "acknowledge"
    ? { kind: "acknowledge", key, by }
    : { kind: "silence", key, by, forMs: click.action.forMs };
}

/** Posts the answer to the click; a failure is logged (never the URL), not thrown. */
async function answerClick(
  deps: SlackClickDeps,
  click: SlackButtonClick,
  response: ClickResponse,
  deadline: number,
): Promise<void> {
  try {
    await deps.respond(click.responseUrl, response, deadline);
  } catch (err) {
    deps.log?.warn("the answer to the click did not reach Slack; the action stands", {
      incidentKey: click.key,
      error: (err as Error).message,
    });
  }
}

function refused(refusal: Refusal): SlackClickAnswer {
  return {
    ...answer(REFUSAL_STATUS[refusal.refused], refusal.refused),
    outcome: refusal.refused,
    detail: refusal.detail,
  };
}

function answer(statusCode: number, body: string): Omit<SlackClickAnswer, "outcome"> {
  return { statusCode, headers: { "content-type": "text/plain; charset=utf-8" }, body };
}
