import { type Labels, labelOf, reasonOf, SEVERITY_RANK, type Severity, stateOf } from "./finding.ts";
import { TRANSITION_KINDS, type Transition, type TransitionKind, type TransitionRef } from "./snapshot.ts";

/** Transitions of one kind that share the audit's `groupBy` labels: one incident, told as one. */
export interface TransitionGroup {
  /** `kind|state|reason|<the other groupBy values>`: stable across runs for the same incident. */
  key: string;
  kind: TransitionKind;
  /** The members' state (the first member's, when the audit does not group by state). */
  state: string;
  /** The members' reason (the first member's, when the audit does not group by reason). */
  reason: string;
  /** The other `groupBy` labels and their values, in `groupBy` order: where the incident is. */
  place: ReadonlyArray<readonly [label: string, value: string]>;
  /** Every `groupBy` label and the value its members share. */
  labels: Labels;
  severity: Severity;
  /** The oldest `since` (onset) of its members (ISO). */
  since: string;
  /** When a run first saw its oldest member (ISO): what names its thread, stable across onsets. */
  firstSeenAt: string;
  /** Members by the value of the presenter's tally label (plans, verbs), most first. */
  tally: Array<[value: string, count: number]>;
  /** Members, oldest incident first. */
  members: TransitionRef[];
}

/** How a run groups: the audit's `groupBy` labels, and the label each group tallies. */
export interface Grouping {
  groupBy: readonly string[];
  tally: string;
}

/** A group's place as one text: its values, blanks left out ("" when it has none). */
export function placeText(g: Pick<TransitionGroup, "place">): string {
  return g.place
    .map(([, value]) => value)
    .filter(Boolean)
    .join(" ");
}

/**
 * Groups transitions by kind and the audit's `groupBy` labels. Groups come in the order every
 * channel tells them, what needs action first: new, then changed, then reminders, then
 * resolved; within a kind most severe first, then largest, then oldest. Members oldest first,
 * then by key, so the order is stable.
 */
export function groupTransitions(
  transitions: readonly Transition[],
  refs: readonly TransitionRef[],
  grouping: Grouping,
): TransitionGroup[] {
  const byState = grouping.groupBy.includes("state");
  const byReason = grouping.groupBy.includes("reason");
  const placeLabels = grouping.groupBy.filter((l) => l !== "state" && l !== "reason");
  const groups = new Map<string, TransitionGroup>();
  const tallies = new Map<string, Map<string, number>>();
  for (const ref of refs) {
    const t = transitions[ref];
    if (!t) continue;
    const f = t.finding;
    const place = placeLabels.map((l) => [l, labelOf(f.labels, l)] as const);
    const key = [
      t.kind,
      ...(byState ? [stateOf(f)] : []),
      ...(byReason ? [reasonOf(f)] : []),
      ...place.map(([, v]) => v),
    ].join("|");
    let g = groups.get(key);
    if (!g) {
      g = {
        key,
        kind: t.kind,
        state: stateOf(f),
        reason: reasonOf(f),
        place,
        labels: Object.fromEntries(grouping.groupBy.map((l) => [l, labelOf(f.labels, l)])),
        severity: t.severity,
        since: t.since,
        firstSeenAt: t.firstSeenAt ?? t.since,
        tally: [],
        members: [],
      };
      groups.set(key, g);
      tallies.set(key, new Map());
    }
    g.members.push(ref);
    if (SEVERITY_RANK[t.severity] > SEVERITY_RANK[g.severity]) g.severity = t.severity;
    if (t.since < g.since) g.since = t.since;
    if ((t.firstSeenAt ?? t.since) < g.firstSeenAt) g.firstSeenAt = t.firstSeenAt ?? t.since;
    const tally = tallies.get(key) as Map<string, number>;
    const value = labelOf(f.labels, grouping.tally);
    tally.set(value, (tally.get(value) ?? 0) + 1);
  }
  const out = [...groups.values()];
  for (const g of out) {
    g.members.sort((a, b) => compareMembers(transitions, a, b));
    g.tally = [...(tallies.get(g.key) as Map<string, number>)].sort(
      (a, b) => b[1] - a[1] || a[0].localeCompare(b[0]),
    );
  }
  return out.sort(
    (a, b) =>
      TRANSITION_KINDS.indexOf(a.kind) - TRANSITION_KINDS.indexOf(b.kind) ||
      SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
      b.members.length - a.members.length ||
      a.since.localeCompare(b.since) ||
      a.key.localeCompare(b.key),
  );
}

function compareMembers(transitions: readonly Transition[], a: TransitionRef, b: TransitionRef): number {
  const ta = transitions[a] as Transition;
  const tb = transitions[b] as Transition;
  return ta.since.localeCompare(tb.since) || ta.key.localeCompare(tb.key);
}
