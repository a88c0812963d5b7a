import { type Finding, stateOf } from "./finding.ts";
import type { AlertPolicy } from "./policy.ts";
import { type Silence, silencing } from "./silence.ts";
import type { SnapshotChange, SnapshotEntry, Transition, TransitionRef } from "./snapshot.ts";

/** Everything one diff needs; time is an input, nothing here reads a clock. */
export interface DiffInput {
  audit: string;
  /** The previous snapshot of this audit, by key. */
  previous: ReadonlyMap<string, SnapshotEntry>;
  /** This run's findings (one per key). */
  findings: readonly Finding[];
  /** What makes two findings the same problem (the audit presenter's `problemKey`). */
  problemKey: (f: Finding) => string;
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
 * when the scan was complete. Writes tied to a transition carry its `TransitionRef`: they are
 * committed only once that transition was told (`committable`), so a failed publish is retried.
 */
export function diffSnapshot(input: DiffInput): DiffResult {
  const { previous, now, policy, problemKey } = input;
  const at = now.toISOString();
  const transitions: Transition[] = [];
  const changes: SnapshotChange[] = [];
  const silences = input.silences ?? [];
  const notify = (t: Omit<Transition, "silencedBy">, finding: Finding): TransitionRef => {
    const silence = silencing(finding, input.audit, silences, now);
    transitions.push(silence ? { ...t, silencedBy: silence.id } : t);
    return transitions.length - 1;
  };
  const seen = new Set<string>();

  for (const finding of input.findings) {
    seen.add(finding.key);
    const prev = previous.get(finding.key);
    const base = {
      key: finding.key,
      state: stateOf(finding),
      severity: finding.severity,
      finding,
      since: prev?.firstSeenAt ?? began(finding, at),
    };
    if (!prev || prev.phase === "pending") {
      const flaggedRuns = (prev?.flaggedRuns ?? 0) + 1;
      const entry: SnapshotEntry = {
        key: finding.key,
        phase: flaggedRuns >= policy.fireAfterRuns ? "firing" : "pending",
        finding,
        flaggedRuns,
        clearRuns: 0,
        firstSeenAt: prev?.firstSeenAt ?? began(finding, at),
        notifiedAt: null,
        version: (prev?.version ?? 0) + 1,
      };
      if (entry.phase === "pending") {
        changes.push({ op: "put", entry });
        continue;
      }
      const index = notify({ ...base, kind: "firing", previousState: null }, finding);
      entry.notifiedAt = transitions[index]?.silencedBy ? null : at;
      changes.push({ op: "put", entry, transition: index });
      continue;
    }
    // Firing.
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
      );
      const silenced = transitions[index]?.silencedBy !== undefined;
      // A still-silenced, unchanged finding is not written again: steady state writes nothing.
      if (silenced && !changed && prev.clearRuns === 0) {
        transitions.pop();
        continue;
      }
      const entry = {
        ...prev,
        finding,
        clearRuns: 0,
        notifiedAt: silenced ? prev.notifiedAt : at,
        version: prev.version + 1,
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
  if (!input.complete) return { transitions, changes };
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
      // Never told anyone (silenced throughout): forget it quietly.
      changes.push({ op: "delete", key: prev.key });
      continue;
    }
    const f = prev.finding;
    const index = notify(
      {
        kind: "resolved",
        key: f.key,
        state: stateOf(f),
        previousState: stateOf(f),
        severity: f.severity,
        finding: f,
        since: prev.firstSeenAt,
      },
      f,
    );
    changes.push({
      op: "delete",
      key: prev.key,
      transition: index,
    });
  }
  return { transitions, changes };
}

/**
 * When a new incident began: when its source says (`startsAt`, e.g. a stuck Application's last
 * message), else when a run first saw it. A start later than the run is not believed.
 */
function began(finding: Finding, at: string): string {
  const since = finding.startsAt;
  return since && since < at ? since : at;
}
