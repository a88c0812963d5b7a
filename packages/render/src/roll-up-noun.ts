import type { PlannedGroup, RollUpGroup } from "@fleet-auditor/audit";

/** What a roll-up's members are ("runtimes"): the noun of its groups, which share kind and state. */
export function rollUpNoun(
  groups: readonly Pick<PlannedGroup, "kind" | "state" | "words">[],
  r: Pick<RollUpGroup, "kind" | "state">,
): string {
  return groups.find((g) => g.kind === r.kind && g.state === r.state)?.words.noun ?? "findings";
}
