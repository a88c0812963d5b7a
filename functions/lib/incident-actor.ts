import type { RunLogger, SlackActionsEnv, SlackClickDeps } from "@fleet-auditor/use-cases";

/**
 * The incident actions core as a click acts on it (`actOnIncident` with its deps: the audit
 * table's incident records and silences, the incidents and critical topics).
 *
 * Until the core is merged, it refuses every action: the function verifies, parses and answers
 * as deployed, and a verified click fails loudly (the function's Errors alarm) instead of seeming
 * to do what it does not.
 */
export function incidentActor(_core: SlackActionsEnv["core"], _log: RunLogger): SlackClickDeps["act"] {
  return async () => {
    throw new Error("the incident actions core is not wired into this function yet");
  };
}
