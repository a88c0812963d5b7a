// What a run knows before it tells anything: the audit's state (read in stage 3, beside the
// source's read; the snapshot's entries only when its fingerprint cannot show the run changes
// nothing), the findings it can keep (stage 4) and the transitions its findings make against the
// snapshot (stage 5). Stages 3 to 5 of `runAudit`.

import {
  type AuditHealth,
  type DiffResult,
  diffSnapshot,
  type Finding,
  keepable,
  type SnapshotEntry,
  type Transition,
  unchangedSince,
} from "@fleet-auditor/audit";
import type { AuditSource } from "./ports.ts";
import type { ResolvedDeps } from "./run-deps.ts";
import { isFirstRun } from "./run-first-day.ts";
import type { LoadedState, Run, Scan, State } from "./run-state.ts";

/**
 * Stage 3, alongside the source's read: the audit's snapshot (or only its fingerprint, one item,
 * when the store keeps one, else its entries with the incidents that ended lately), the silences in
 * force, its health, and whether this is its first scheduled run here, to be recorded as a
 * baseline (a store with a fingerprint has committed).
 */
export async function loadState(deps: ResolvedDeps, run: Run): Promise<LoadedState> {
  const { store } = deps.ports;
  const snapshot = async () => {
    const fingerprint = await store.loadFingerprint?.(run.audit.name);
    if (fingerprint) return { fingerprint };
    const { previous, episodes } = await entries(deps, run);
    return {
      previous,
      episodes,
      ...((await isFirstRun(deps, run, previous)) ? { baseline: true as const } : {}),
    };
  };
  const [previous, silences, health, unfinished] = await Promise.all([
    snapshot(),
    deps.ports.silences?.active(run.now) ?? Promise.resolve([]),
    deps.ports.store.loadHealth(run.audit.name),
    deps.ports.store.unfinishedPublishing(run.audit.name),
  ]);
  return {
    ...previous,
    silences,
    health,
    ...(unfinished && unfinished !== run.id ? { repeats: unfinished } : {}),
  };
}

/**
 * Stage 3, once the source has read: the state with the snapshot's entries, read now unless the
 * fingerprint shows that the diff would find nothing to tell or write (no finding new, changed,
 * due or absent), then none are read and the diff is skipped. The findings judged are those the
 * diff will see (`keepable`); a fingerprint never stands in for the entries otherwise.
 */
export async function knownState(
  deps: ResolvedDeps,
  run: Run,
  scan: Scan,
  loaded: LoadedState,
): Promise<State> {
  if ("previous" in loaded) return loaded;
  const { fingerprint, ...rest } = loaded;
  const unchanged = unchangedSince(fingerprint, {
    audit: run.audit.name,
    findings: keepableOnce(scan.findings).findings,
    problemKey: run.audit.presenter.problemKey,
    complete: scan.complete,
    now: run.now,
    policy: deps.settings.policy,
    silences: rest.silences,
    incidents: { routes: run.routes },
    ...(run.audit.inhibitRules ? { inhibitRules: run.audit.inhibitRules } : {}),
  });
  if (unchanged) return { ...rest, previous: new Map(), unchanged, episodes: [] };
  return { ...rest, ...(await entries(deps, run)) };
}

/**
 * The snapshot's entries and, beside them, the incidents that ended lately: a run that diffs may
 * open an incident, and needs them to tell whether it is flapping; a steady run reads neither.
 */
async function entries(deps: ResolvedDeps, run: Run): Promise<Pick<State, "previous" | "episodes">> {
  const [previous, episodes] = await Promise.all([
    deps.ports.store.loadSnapshot(run.audit.name),
    deps.ports.store.loadEpisodes(run.audit.name),
  ]);
  return { previous, episodes };
}

/**
 * `keepable` once per findings array: the fingerprint's judgement (stage 3) and `leaveOut` (stage
 * 4) see the same scan when the absence lookup found nothing to look up, and a JSON size check of
 * thousands of findings is a run's largest cost after the listing.
 */
const keptOf = new WeakMap<readonly Finding[], ReturnType<typeof keepable>>();
function keepableOnce(findings: readonly Finding[]): ReturnType<typeof keepable> {
  let kept = keptOf.get(findings);
  if (!kept) {
    kept = keepable(findings);
    keptOf.set(findings, kept);
  }
  return kept;
}

/**
 * Stage 4, last: what the run cannot keep (`keepable`: a finding that cannot be stored, a second
 * finding under one key) is left out before the diff (stage 5), so nothing is published that the
 * commit would then refuse; it is counted in the summary and told once.
 */
export function leaveOut(deps: ResolvedDeps, scan: Scan): Scan {
  const { findings, leftOut } = keepableOnce(scan.findings);
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
  if (state.unchanged) return { transitions: [], changes: [] };
  return diffSnapshot({
    audit: run.audit.name,
    previous: state.previous,
    findings: scan.findings,
    problemKey: run.audit.presenter.problemKey,
    incidents: {
      ...(deps.settings.landscape ? { landscape: deps.settings.landscape } : {}),
      routes: run.routes,
      episodes: { ...deps.settings.flapping, ended: state.episodes },
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
    ...(run.audit.inhibitRules ? { inhibitRules: run.audit.inhibitRules } : {}),
  });
}

/** How each resolved finding ended, from the confirmation lookup. */
export function withEndings(transitions: Transition[], endings: ReadonlyMap<string, string>): Transition[] {
  return transitions.map((t) => {
    const ending = t.kind === "resolved" ? endings.get(t.key) : undefined;
    return ending === undefined ? t : { ...t, ending };
  });
}
