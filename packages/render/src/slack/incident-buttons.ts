// The contract between the buttons the bot's incident messages carry and the function Slack's
// interactivity reaches (`functions/slack-actions.ts`): which action each `action_id` asks for, and
// what a `value` may be. Both sides read it here, so a button the renderer adds is one the function
// knows, and a value it accepts is one the renderer could have written.

const HOUR_MS = 3_600_000;

/** The `block_id` of an incident message's buttons: the block an action replaces once it is done. */
export const INCIDENT_BUTTONS_BLOCK = "fleet-auditor.incident";

/** What a button asks for: an acknowledgement, or a silence of the incident for `forMs`. */
export type IncidentButtonAction = { kind: "acknowledge" } | { kind: "silence"; forMs: number };

interface IncidentButton {
  /** Its `action_id` (Slack: at most 255 characters, unique in the message). */
  actionId: string;
  label: string;
  action: IncidentButtonAction;
}

/** The buttons, in the order a message shows them. */
const INCIDENT_BUTTONS: readonly IncidentButton[] = [
  { actionId: "fleet-auditor.ack", label: "Acknowledge", action: { kind: "acknowledge" } },
  {
    actionId: "fleet-auditor.silence.4h",
    label: "Silence 4h",
    action: { kind: "silence", forMs: 4 * HOUR_MS },
  },
  {
    actionId: "fleet-auditor.silence.24h",
    label: "Silence 24h",
    action: { kind: "silence", forMs: 24 * HOUR_MS },
  },
];

/**
 * What a button's `value` may be: an incident's key (`inc-` and 24 base64url characters, as the
 * engine makes them), within a bound far below Slack's 2,000 characters. A key from another
 * publisher that is not of this shape gets no buttons: nothing the function would refuse is sent.
 */
export const INCIDENT_KEY_VALUE = /^[A-Za-z0-9_-]{1,100}$/;

/** The action a button's `action_id` asks for, or undefined for an ID that is none of ours. */
export function incidentButtonAction(actionId: string): IncidentButtonAction | undefined {
  return INCIDENT_BUTTONS.find((b) => b.actionId === actionId)?.action;
}

/** A button that acts: no `url`, the incident's key as its `value`. */
export interface SlackActionButton {
  type: "button";
  text: { type: "plain_text"; text: string; emoji: boolean };
  action_id: string;
  value: string;
  style?: "primary";
}

/**
 * The actions block of an incident message: Acknowledge (primary), Silence 4h, Silence 24h, each
 * with the incident's key as its value; undefined for a key the function would refuse.
 */
export function incidentButtons(
  key: string,
): { type: "actions"; block_id: string; elements: SlackActionButton[] } | undefined {
  if (!INCIDENT_KEY_VALUE.test(key)) return undefined;
  return {
    type: "actions",
    block_id: INCIDENT_BUTTONS_BLOCK,
    elements: INCIDENT_BUTTONS.map((b) => ({
      type: "button",
      text: { type: "plain_text", text: b.label, emoji: true },
      action_id: b.actionId,
      value: key,
      ...(b.action.kind === "acknowledge" ? { style: "primary" as const } : {}),
    })),
  };
}
