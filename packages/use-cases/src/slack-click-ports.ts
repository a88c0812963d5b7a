import type { SlackInteractionRules } from "@fleet-auditor/inbound";
import type { RunLogger } from "./ports.ts";
import type { SecretValue } from "./secret.ts";

// What answering a Slack click takes from outside (`answerSlackClick`, `slack-click.ts`): the
// signing secret, the rules a click must meet, the incident actions core and Slack's response URL.

/** What a click asks the incident actions core for (a part of its `IncidentAction`). */
export type ClickAction =
  | { kind: "acknowledge"; key: string; by: string }
  | { kind: "silence"; key: string; by: string; forMs: number };

/** What the core says it did (its `IncidentActionResult`, the part a click's answer reads). */
export interface ClickActed {
  outcome: "applied" | "already" | "unknown";
  silenceId?: string;
}

/** The use case's ports: the signing secret, where clicks may come from, the core, the answer. */
export interface SlackClickDeps {
  signingSecret: SecretValue;
  rules: SlackInteractionRules;
  /** The incident actions core (`actOnIncident` with its deps): applies the action once. */
  act: (action: ClickAction) => Promise<ClickActed>;
  /** Posts to a click's `response_url` (notify's `SlackResponder`). */
  respond: (responseUrl: string, response: ClickResponse, deadline: number) => Promise<void>;
  log?: RunLogger;
}

/** What is posted to a click's `response_url`: notify's `SlackResponse`. */
export interface ClickResponse {
  text: string;
  blocks?: readonly object[];
  replace_original: boolean;
  response_type?: "ephemeral" | "in_channel";
}
