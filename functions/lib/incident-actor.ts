import type { RunLogger, SlackActionsEnv, SlackClickDeps } from "@fleet-auditor/use-cases";
import { incidentActor as actor } from "./incident-action-deps.ts";

/** The incident actions core as a click acts on it (`incident-action-deps.ts`). */
export function incidentActor(core: SlackActionsEnv["core"], log: RunLogger): SlackClickDeps["act"] {
  return actor(core, log);
}
