import type { Transition } from "@fleet-auditor/audit";
import { type FlatFinding, findingFromFlat } from "./flat-finding.ts";

// @deprecated with the flat form (`flat-finding.ts`): goes in the first release after 2027-03-31
// (run reports expire after 30 days, so none written before 2026-12 is left by then). Releases
// before 2026-12 kept each transition of a report in the flat form; it reads as today's.

type FlatRow = FlatFinding &
  Pick<
    Transition,
    "kind" | "previousState" | "since" | "firstSeenAt" | "ending" | "silencedBy" | "incident"
  > & {
    previousOperation?: FlatFinding["operation"];
  };

/** A stored report row, of this release (a transition) or one before (a flat row), as a transition. */
export function transitionOf(row: Transition | FlatRow): Transition {
  if ("finding" in row) return row;
  const finding = findingFromFlat(row);
  // The finding before a change kept only its state and operation: its labels are derived again.
  const { labels: _now, ...before } = row;
  const previous =
    row.previousOperation === undefined
      ? undefined
      : findingFromFlat({
          ...before,
          state: row.previousState ?? row.state,
          operation: row.previousOperation,
        });
  return {
    kind: row.kind,
    key: finding.key,
    state: row.state,
    previousState: row.previousState,
    severity: row.severity,
    finding,
    since: row.since,
    ...(row.firstSeenAt !== undefined ? { firstSeenAt: row.firstSeenAt } : {}),
    ...(row.incident !== undefined ? { incident: row.incident } : {}),
    ...(previous ? { previous } : {}),
    ...(row.ending !== undefined ? { ending: row.ending } : {}),
    ...(row.silencedBy !== undefined ? { silencedBy: row.silencedBy } : {}),
  };
}
