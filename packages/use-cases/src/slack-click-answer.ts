import { humanDuration, shortTime, slackCode } from "@fleet-auditor/audit";
import type { SlackButtonClick } from "@fleet-auditor/inbound";
import { INCIDENT_BUTTONS_BLOCK } from "@fleet-auditor/render";
import type { ClickActed, ClickResponse } from "./slack-click-ports.ts";

// What a click's `response_url` is sent: the message clicked on, its buttons replaced by a line
// that says who did what and when (so that the next person sees it was done, and clicks nothing);
// or, for a key with no open incident, a word only the user who clicked sees.

/**
 * The message clicked on, as Slack sent it back, with its buttons' block (`block_id`
 * `fleet-auditor.incident`) replaced by a context line: ":white_check_mark: Acknowledged by
 * <@U123> at 2026-12-01 08:02 UTC", or ":mute: Silenced for 4h by <@U123> …" with the silence's
 * ID. A message that came without its blocks gets the line as a word to the user instead.
 */
export function clickedMessageUpdate(click: SlackButtonClick, acted: ClickActed, at: string): ClickResponse {
  const line = doneLine(click, acted, at);
  const blocks = click.message?.blocks;
  const index = blocks?.findIndex((b) => b.block_id === INCIDENT_BUTTONS_BLOCK) ?? -1;
  if (!blocks || index < 0) return { text: line, replace_original: false, response_type: "ephemeral" };
  const done = { type: "context", elements: [{ type: "mrkdwn", text: line }] };
  return {
    text: click.message?.text || line,
    blocks: blocks.map((b, i) => (i === index ? done : b)),
    replace_original: true,
  };
}

/** What the user who clicked reads when no open incident has the key. */
export function unknownIncidentWord(key: string): ClickResponse {
  return {
    text: `:grey_question: No open incident has the key ${slackCode(key, 100)}: it has ended, or its record is gone. Nothing was changed.`,
    replace_original: false,
    response_type: "ephemeral",
  };
}

/** Who did what, and when: one mrkdwn line, the user mentioned by ID (Slack shows their name). */
function doneLine(click: SlackButtonClick, acted: ClickActed, at: string): string {
  const who = `<@${click.userId}>`;
  const when = shortTime(at);
  const again = acted.outcome === "already" ? " (it already was)" : "";
  if (click.action.kind === "acknowledge")
    return `:white_check_mark: Acknowledged by ${who} at ${when}${again}`;
  const id = acted.silenceId ? `: silence ${slackCode(acted.silenceId, 80)}` : "";
  return `:mute: Silenced for ${humanDuration(click.action.forMs)} by ${who} at ${when}${again}${id}`;
}
