// What a run knows before it tells anything: the audit's state (read in stage 3, beside the
// source's read), the findings it can keep (stage 4) and the transitions its findings make
// against the snapshot (stage 5). Stages 3 to 5 of `runAudit`.

import {
  type AuditHealth,
  type DiffResult,
  diffSnapshot,
  keepable,
  type SnapshotEntry,
  type Transition,
} from "@fleet-auditor/audit";
import type { AuditSource } from "./ports.ts";
import type { ResolvedDeps } from "./run-deps.ts";
import { isFirstRun } from "./run-first-day.ts";
import type { Run, Scan, State } from "./run-state.ts";

/**
 * Stage 3, alongside the source's read: the audit's snapshot, the silences in force, its health,
 * and whether this is its first scheduled run here, to be recorded as a baseline.
 */
export async function loadState(deps: ResolvedDeps, run: Run): Promise<State> {
  const [[previous, baseline], silences, health, unfinished] = await Promise.all([
    deps.ports.store
      .loadSnapshot(run.audit.name)
      .then(async (snapshot) => [snapshot, await isFirstRun(deps, run, snapshot)] as const),
    deps.ports.silences?.active(run.now) ?? Promise.resolve([]),
    deps.ports.store.loadHealth(run.audit.name),
    deps.ports.store.unfinishedPublishing(run.audit.name),
  ]);
  return {
    previous,
    silences,
    health,
    ...(unfinished && unfinished !== run.id ? { repeats: unfinished } : {}),
    ...(baseline ? { baseline } : {}),
  };
}

/**
 * Stage 4, last: what the run cannot keep (`keepable`: a finding that cannot be stored, a second
 * finding under one key) is left out before the diff (stage 5), so nothing is published that the
 * commit would then refuse; it is counted in the summary and told once.
 */
export function leaveOut(deps: ResolvedDeps, scan: Scan): Scan {
  const { findings, leftOut } = keepable(scan.findings);
  if (leftOut.length === 0) return scan;
  deps.hooks.log?.warn("findings that cannot be kept were left out", {
    count: leftOut.length,
    first: leftOut.slice(0, 5).map(({ key, reason }) => ({ key, reason })),
  });
  return { ...scan, findings, leftOut: [...scan.leftOut, ...leftOut] };
}

/** The health item with the left-out findings told so far, or undefined when that is unchanged. */
export function rememberLeftOut(health: AuditHealth, remember: readonly string[]): AuditHealth | undefined {
  const before = health.leftOutTold ?? [];
  if (before.length === remember.length && before.every((d, i) => d === remember[i])) return undefined;
  const { leftOutTold: _old, ...rest } = health;
  return remember.length ? { ...rest, leftOutTold: [...remember] } : rest;
}

/** Stage 5 (pure): the transitions and snapshot writes. */
export function planTransitions(
  deps: ResolvedDeps,
  run: Run,
  scan: Scan,
  state: State,
  source: AuditSource,
): DiffResult {
  return diffSnapshot({
    audit: run.audit.name,
    previous: state.previous,
    findings: scan.findings,
    problemKey: run.audit.presenter.problemKey,
    incidents: {
      ...(deps.settings.landscape ? { landscape: deps.settings.landscape } : {}),
      groupBy: run.audit.groupBy,
    },
    complete: scan.complete,
    ...(source.covers
      ? { inScope: (entry: SnapshotEntry) => source.covers?.(run, entry.finding) ?? true }
      : {}),
    now: run.now,
    // A baseline records what is flagged now as firing: it has been failing for longer than any
    // count of runs, and a finding left pending would be told by the next run, which is no baseline.
    policy: state.baseline ? { ...deps.settings.policy, fireAfterRuns: 1 } : deps.settings.policy,
    silences: state.silences,
  });
}

/** How each resolved finding ended, from the confirmation lookup. */
export function withEndings(transitions: Transition[], endings: ReadonlyMap<string, string>): Transition[] {
  return transitions.map((t) => {
    const ending = t.kind === "resolved" ? endings.get(t.key) : undefined;
    return ending === undefined ? t : { ...t, ending };
  });
}
