import { labelOf, reasonOf, stateOf, type Transition, type TransitionRef } from "@fleet-auditor/audit";

// What a group holds that its `groupBy` does not say: a pager route that groups by audit alone
// puts runtimes of many states, reasons and regions in one incident, and its title must count
// them rather than name its first member's reason as the incident's.

/** Values of one label among a group's members: the most frequent, and how many there are. */
export interface MixTally {
  /** The most frequent values, most first (at most `MIX_SHOWN`). */
  top: Array<{ value: string; count: number }>;
  /** How many distinct values the members have. */
  distinct: number;
}

/** A group's members by the labels its `groupBy` leaves out: state, reason, place. */
export interface GroupMix {
  state?: MixTally;
  reason?: MixTally;
  /** `label`: the presenter's place label (`region`, `node`). */
  place?: MixTally & { label: string };
}

/** Values kept per label: what a title names, and one to spare. */
const MIX_SHOWN = 5;

/** The tally of `values`, most first, then by value: the same order every run. */
function tally(values: readonly string[]): MixTally {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return {
    top: sorted.slice(0, MIX_SHOWN).map(([value, count]) => ({ value, count })),
    distinct: counts.size,
  };
}

/**
 * The mix of a group's members for each of state, reason and place that `groupBy` does not
 * include; undefined when it includes them all (its values say everything).
 */
export function groupMix(
  groupBy: readonly string[],
  placeLabel: string,
  transitions: readonly Transition[],
  members: readonly TransitionRef[],
): GroupMix | undefined {
  const state = !groupBy.includes("state");
  const reason = !groupBy.includes("reason");
  const place = placeLabel !== "" && !groupBy.includes(placeLabel);
  // The usual grouping says everything: nothing to count (a run of 20,000 counts nothing).
  if (!state && !reason && !place) return undefined;
  const findings = members.map((r) => (transitions[r] as Transition).finding);
  return {
    ...(state ? { state: tally(findings.map(stateOf)) } : {}),
    ...(reason ? { reason: tally(findings.map(reasonOf)) } : {}),
    ...(place
      ? { place: { ...tally(findings.map((f) => labelOf(f.labels, placeLabel))), label: placeLabel } }
      : {}),
  };
}

/** The mixes of a message's groups as one: counts summed, values re-ranked. */
export function mergeMixes(mixes: ReadonlyArray<GroupMix | undefined>): GroupMix | undefined {
  const given = mixes.filter((m): m is GroupMix => m !== undefined);
  if (given.length === 0) return undefined;
  const merge = (tallies: ReadonlyArray<MixTally | undefined>): MixTally | undefined => {
    const present = tallies.filter((t): t is MixTally => t !== undefined);
    if (present.length === 0) return undefined;
    const counts = new Map<string, number>();
    for (const t of present)
      for (const { value, count } of t.top) counts.set(value, (counts.get(value) ?? 0) + count);
    const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return {
      top: sorted.slice(0, MIX_SHOWN).map(([value, count]) => ({ value, count })),
      // Values past each group's top are not known by name: at least the most any group had.
      distinct: Math.max(counts.size, ...present.map((t) => t.distinct)),
    };
  };
  const state = merge(given.map((m) => m.state));
  const reason = merge(given.map((m) => m.reason));
  const place = merge(given.map((m) => m.place));
  const label = given.find((m) => m.place)?.place?.label ?? "";
  return {
    ...(state ? { state } : {}),
    ...(reason ? { reason } : {}),
    ...(place ? { place: { ...place, label } } : {}),
  };
}
