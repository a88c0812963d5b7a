import { type Finding, reasonOf, SEVERITY_RANK, type Severity } from "./finding.ts";
import type { Transition, TransitionKind, TransitionRef } from "./snapshot.ts";

/** Transitions of one kind that share state, reason and region: one incident, told as one. */
export interface TransitionGroup {
  /** `kind|state|reason|region`: stable across runs for the same incident. */
  key: string;
  kind: TransitionKind;
  state: string;
  reason: string;
  region: string;
  severity: Severity;
  /** The oldest `since` of its members (ISO). */
  since: string;
  /** Members by plan, most first. */
  plans: Array<[plan: string, count: number]>;
  /** Members, oldest incident first. */
  members: TransitionRef[];
  /** Its members are edge findings (the applications audit): `region` is a node, `plans` are verbs. */
  edge?: true;
}

/** The key a finding groups under, with the transition's kind. */
export function groupKey(kind: TransitionKind, f: Finding): string {
  return [kind, f.state, reasonOf(f), f.region].join("|");
}

/**
 * Groups transitions by kind, state, reason and region. Groups come most severe first, then
 * largest, then oldest; members oldest first, then by instance ID, so the order is stable.
 */
export function groupTransitions(
  transitions: readonly Transition[],
  refs: readonly TransitionRef[],
): TransitionGroup[] {
  const groups = new Map<string, TransitionGroup>();
  const plans = new Map<string, Map<string, number>>();
  for (const ref of refs) {
    const t = transitions[ref];
    if (!t) continue;
    const f = t.finding;
    const key = groupKey(t.kind, f);
    let g = groups.get(key);
    if (!g) {
      g = {
        key,
        kind: t.kind,
        state: f.state,
        reason: reasonOf(f),
        region: f.region,
        severity: t.severity,
        since: t.since,
        plans: [],
        members: [],
        ...(f.edge ? { edge: true as const } : {}),
      };
      groups.set(key, g);
      plans.set(key, new Map());
    }
    g.members.push(ref);
    if (SEVERITY_RANK[t.severity] > SEVERITY_RANK[g.severity]) g.severity = t.severity;
    if (t.since < g.since) g.since = t.since;
    const byPlan = plans.get(key) as Map<string, number>;
    byPlan.set(f.plan, (byPlan.get(f.plan) ?? 0) + 1);
  }
  const out = [...groups.values()];
  for (const g of out) {
    g.members.sort((a, b) => compareMembers(transitions, a, b));
    g.plans = [...(plans.get(g.key) as Map<string, number>)].sort(
      (a, b) => b[1] - a[1] || a[0].localeCompare(b[0]),
    );
  }
  return out.sort(
    (a, b) =>
      SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
      b.members.length - a.members.length ||
      a.since.localeCompare(b.since) ||
      a.key.localeCompare(b.key),
  );
}

function compareMembers(transitions: readonly Transition[], a: TransitionRef, b: TransitionRef): number {
  const ta = transitions[a] as Transition;
  const tb = transitions[b] as Transition;
  return ta.since.localeCompare(tb.since) || ta.instanceID.localeCompare(tb.instanceID);
}
