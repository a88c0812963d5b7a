import { type Finding, stateOf } from "./finding.ts";
import { type IncidentScope, OpenIncidents } from "./incident.ts";
import { type InhibitRule, inhibitor } from "./inhibition.ts";
import type { AlertPolicy } from "./policy.ts";
import { type Silence, silencing } from "./silence.ts";
import {
  heldBack,
  type IncidentRef,
  type SnapshotChange,
  type SnapshotEntry,
  type Transition,
  type TransitionRef,
} from "./snapshot.ts";

/** Everything one diff needs; time is an input, nothing here reads a clock. */
export interface DiffInput {
  audit: string;
  /** The previous snapshot of this audit, by key. */
  previous: ReadonlyMap<string, SnapshotEntry>;
  /** This run's findings (one per key). */
  findings: readonly Finding[];
  /** What makes two findings the same problem (the audit presenter's `problemKey`). */
  problemKey: (f: Finding) => string;
  /**
   * Where incidents are (the landscape and the audit's `groupBy`): every firing finding joins or
   * opens one, and its transitions carry it. Without it, transitions carry no incident.
   */
  incidents?: Omit<IncidentScope, "audit">;
  /** False when the scan could not be verified complete: then nothing resolves or is deleted. */
  complete: boolean;
  /**
   * Whether the run looked at an entry's finding (a filtered run looks at part of the fleet):
   * entries outside are kept as they are, like after an incomplete scan. Default: every entry.
   */
  inScope?: (entry: SnapshotEntry) => boolean;
  now: Date;
  policy: AlertPolicy;
  silences?: readonly Silence[];
  /**
   * The audit's inhibition rules: a finding that fires now holds back the findings they name
   * (`inhibition.ts`), as a silence would, without resolving them.
   */
  inhibitRules?: readonly InhibitRule[];
}

/** The transitions to notify and the snapshot writes; an unchanged finding yields neither. */
export interface DiffResult {
  transitions: Transition[];
  changes: SnapshotChange[];
}

/**
 * Compares a run's findings with the previous snapshot. Findings move pending → firing
 * after `fireAfterRuns`; firing ones emit `changed` when their state or failing operation changes
 * and `reminder` after `repeatIntervalMs`; absent ones resolve after `resolveAfterRuns`, but only
 * when the scan was complete. A finding that fires joins the open incident of its `groupBy`
 * values, or opens one, and stays in it until it resolves. Writes tied to a transition carry its
 * `TransitionRef`: they are committed only once that transition was told (`committable`), so a
 * failed publish is retried. A transition held back (silenced, or inhibited by a finding that
 * fires now) tells nobody: a finding held back since it fired stays untold (`notifiedAt` null),
 * so the first run after its release tells it as `firing`.
 */
export function diffSnapshot(input: DiffInput): DiffResult {
  const { previous, now, policy, problemKey } = input;
  const at = now.toISOString();
  const transitions: Transition[] = [];
  const changes: SnapshotChange[] = [];
  const silences = input.silences ?? [];
  const inhibiting = inhibitor(input.inhibitRules ?? [], firingNow(input));
  const open =
    input.incidents && new OpenIncidents({ ...input.incidents, audit: input.audit }, previous.values());
  // Each incident's members' onsets, for its `startsAt`: the earliest of them.
  const onsets = new Map<string, string>();
  const member = (incident: IncidentRef | undefined, onset: string): IncidentRef | undefined => {
    if (incident) {
      const known = onsets.get(incident.key);
      if (!known || onset < known) onsets.set(incident.key, onset);
    }
    return incident;
  };
  const memberships = new Map<TransitionRef, IncidentRef>();
  // A silence or, for a finding flagged now, an inhibition holds a transition back; a resolve of
  // one no longer flagged is no target: inhibition never ends (nor hides the end of) a finding.
  const notify = (
    t: Omit<Transition, "silencedBy" | "inhibitedBy" | "incident">,
    finding: Finding,
    incident: IncidentRef | undefined,
    flagged = true,
  ): TransitionRef => {
    const silence = silencing(finding, input.audit, silences, now);
    const by = silence || !flagged ? undefined : inhibiting(finding);
    transitions.push(silence ? { ...t, silencedBy: silence.id } : by ? { ...t, inhibitedBy: by } : t);
    const ref = transitions.length - 1;
    if (incident) memberships.set(ref, incident);
    return ref;
  };
  const seen = new Set<string>();

  for (const finding of input.findings) {
    seen.add(finding.key);
    const prev = previous.get(finding.key);
    const firstSeenAt = prev?.firstSeenAt ?? at;
    const since = onsetOf(finding, firstSeenAt, at);
    const base = {
      key: finding.key,
      state: stateOf(finding),
      severity: finding.severity,
      finding,
      since,
      firstSeenAt,
    };
    if (!prev || prev.phase === "pending") {
      const flaggedRuns = (prev?.flaggedRuns ?? 0) + 1;
      const fires = flaggedRuns >= policy.fireAfterRuns;
      const incident = fires ? member(open?.join(finding, at), since) : undefined;
      const entry: SnapshotEntry = {
        key: finding.key,
        phase: fires ? "firing" : "pending",
        finding,
        flaggedRuns,
        clearRuns: 0,
        firstSeenAt,
        notifiedAt: null,
        version: (prev?.version ?? 0) + 1,
        ...(incident ? { incident } : {}),
      };
      if (!fires) {
        changes.push({ op: "put", entry });
        continue;
      }
      const index = notify({ ...base, kind: "firing", previousState: null }, finding, incident);
      entry.notifiedAt = heldBack(transitions[index]) ? null : at;
      changes.push({ op: "put", entry, transition: index });
      continue;
    }
    // Firing: it stays in the incident it fired in.
    const incident = member(open?.of(prev), since);
    const changed = problemKey(prev.finding) !== problemKey(finding);
    const neverSent = prev.notifiedAt === null;
    const due =
      prev.notifiedAt !== null && now.getTime() - Date.parse(prev.notifiedAt) >= policy.repeatIntervalMs;
    if (changed || neverSent || due) {
      const kind = changed ? "changed" : neverSent ? "firing" : "reminder";
      const previousState = kind === "firing" ? null : stateOf(prev.finding);
      const index = notify(
        { ...base, kind, previousState, ...(kind === "changed" ? { previous: prev.finding } : {}) },
        finding,
        incident,
      );
      const held = heldBack(transitions[index]);
      // A still held back, unchanged finding is not written again: steady state writes nothing.
      if (held && !changed && prev.clearRuns === 0) {
        transitions.pop();
        memberships.delete(index);
        continue;
      }
      const entry = {
        ...prev,
        finding,
        clearRuns: 0,
        notifiedAt: held ? prev.notifiedAt : at,
        version: prev.version + 1,
        ...(incident ? { incident } : {}),
      };
      changes.push({ op: "put", entry, transition: index });
    } else if (prev.clearRuns > 0) {
      changes.push({
        op: "put",
        entry: { ...prev, clearRuns: 0, version: prev.version + 1 },
      });
    }
  }

  // An incomplete scan cannot tell "gone" from "not listed": keep every absent entry as it is;
  // so does a filtered run for the entries outside its filter.
  if (input.complete) resolveAbsent();
  // Members without news count for their incident's start too.
  for (const prev of previous.values()) {
    if (prev.phase === "firing") member(open?.of(prev), onsetOf(prev.finding, prev.firstSeenAt, at));
  }
  const after = incidentsAfter();
  const criticalBefore = new Set<string>();
  for (const prev of previous.values()) if (open && toldCritical(prev)) criticalBefore.add(open.of(prev).key);
  for (const [ref, incident] of memberships) {
    const t = transitions[ref] as Transition;
    const was = criticalBefore.has(incident.key);
    const is = after.critical.has(incident.key);
    transitions[ref] = {
      ...t,
      incident: {
        key: incident.key,
        startsAt: onsets.get(incident.key) ?? t.since,
        openedAt: incident.openedAt,
        firing: after.open.get(incident.key) ?? 0,
        ...(after.open.has(incident.key) ? {} : { ended: true as const }),
        ...(was !== is ? { pager: is ? ("trigger" as const) : ("resolve" as const) } : {}),
      },
    };
  }
  return { transitions, changes };

  /**
   * The incidents a firing entry still belongs to once this run's writes are committed, with how
   * many members each keeps, and those
   * of them with a critical member whose firing was told (what a pager has heard of).
   */
  function incidentsAfter(): { open: Map<string, number>; critical: Set<string> } {
    const written = new Map<string, SnapshotEntry | undefined>();
    for (const c of changes)
      written.set(c.op === "put" ? c.entry.key : c.key, c.op === "put" ? c.entry : undefined);
    const keys = { open: new Map<string, number>(), critical: new Set<string>() };
    const add = (entry: SnapshotEntry, key: string): void => {
      keys.open.set(key, (keys.open.get(key) ?? 0) + 1);
      if (toldCritical(entry)) keys.critical.add(key);
    };
    for (const prev of previous.values()) {
      const entry = written.has(prev.key) ? written.get(prev.key) : prev;
      if (entry?.phase === "firing" && open) add(entry, open.of(entry).key);
    }
    for (const entry of written.values())
      if (entry?.phase === "firing" && entry.incident && !previous.has(entry.key))
        add(entry, entry.incident.key);
    return keys;
  }

  function resolveAbsent(): void {
    for (const prev of previous.values()) {
      if (seen.has(prev.key)) continue;
      if (input.inScope && !input.inScope(prev)) continue;
      if (prev.phase === "pending") {
        changes.push({ op: "delete", key: prev.key });
        continue;
      }
      const clearRuns = prev.clearRuns + 1;
      if (clearRuns < policy.resolveAfterRuns) {
        changes.push({
          op: "put",
          entry: { ...prev, clearRuns, version: prev.version + 1 },
        });
        continue;
      }
      if (prev.notifiedAt === null) {
        // Never told anyone (held back throughout): forget it quietly.
        changes.push({ op: "delete", key: prev.key });
        continue;
      }
      const f = prev.finding;
      const since = onsetOf(f, prev.firstSeenAt, at);
      const index = notify(
        {
          kind: "resolved",
          key: f.key,
          state: stateOf(f),
          previousState: stateOf(f),
          severity: f.severity,
          finding: f,
          since,
          firstSeenAt: prev.firstSeenAt,
        },
        f,
        member(open?.of(prev), since),
        false,
      );
      changes.push({ op: "delete", key: prev.key, transition: index });
    }
  }
}

/**
 * A firing entry that is critical and was told (not silenced): the pager knows of it. Its writes
 * are committed only once told, so a run whose pager message was refused sees it untold again.
 */
function toldCritical(entry: SnapshotEntry): boolean {
  return entry.phase === "firing" && entry.notifiedAt !== null && entry.finding.severity === "critical";
}

/**
 * The findings that fire now, and so may inhibit: flagged in this run, and firing already or
 * firing with it. A pending one inhibits nothing, as in Alertmanager.
 */
function firingNow({ findings, previous, policy, inhibitRules }: DiffInput): Finding[] {
  if (!inhibitRules?.length) return [];
  return findings.filter((f) => {
    const prev = previous.get(f.key);
    return prev?.phase === "firing" || (prev?.flaggedRuns ?? 0) + 1 >= policy.fireAfterRuns;
  });
}

/**
 * When a finding's problem began: when its source says (`startsAt`: a KEB operation's failure, an
 * expiry, an edge Application's last message), else when a run first saw it. A start later than
 * the run, or one that is not a time, is not believed.
 */
function onsetOf(finding: Finding, firstSeenAt: string, at: string): string {
  const since = finding.startsAt;
  return since && !Number.isNaN(Date.parse(since)) && since <= at ? since : firstSeenAt;
}
