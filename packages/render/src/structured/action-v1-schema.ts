import { array, iso, literal, object, enum as oneOf, type output, string } from "zod";
import { ACTION_V1 } from "./action-v1-name.ts";

// The structured incident action's zod schema, apart from the code that builds it: the Slack and
// pager functions parse it; the CLI and the functions that take actions only build it.

const Time = iso.datetime({ offset: true, error: "expected an ISO 8601 date-time" });

/**
 * `fleet-auditor.action/v1`: the `default` (Lambda, SQS) of what someone did to an incident: the
 * Slack function tells it in the incident's thread, the pager acknowledges its pages.
 */
export const ActionV1Schema = object({
  schema: literal(ACTION_V1),
  landscape: string().optional(),
  audit: string(),
  at: Time.describe("when it was done"),
  action: oneOf(["acknowledge", "unacknowledge", "silence", "pagerResolved"]),
  by: string().describe("who did it, as its channel names them (one line)"),
  comment: string().optional(),
  incident: object({
    key: string().describe("the incident it names"),
    thread: string().describe("the key of the chat thread its messages go to"),
  }),
  pages: array(string()).describe(
    "the pager's alerts (dedup keys) it acknowledges: the pages of every incident it was mirrored to",
  ),
  silence: object({ id: string(), endsAt: Time }).optional().describe("the silence it set (silence)"),
  text: string().describe("what happened, in one line"),
});

export type ActionV1 = output<typeof ActionV1Schema>;
