// An audit's first day on a stage. Its first scheduled run records what is already flagged as a
// baseline and sends one short notice, instead of a digest, a chat message per incident and a
// page for a backlog of thousands (stages 3, 7 and 8 of `runAudit`); a run whose secret has no
// value yet ends `not-configured`, told once, instead of throwing every 15 minutes.

import {
  type AuditHealth,
  type Delivery,
  type DiffResult,
  type SnapshotEntry,
  stateOf,
  toldQuietly,
} from "@fleet-auditor/audit";
import { redact } from "@fleet-auditor/http";
import { notConfiguredNotice } from "@fleet-auditor/render";
import type { SecretUnreadableError } from "./errors.ts";
import type { ResolvedDeps } from "./run-deps.ts";
import { elapsed, emptySummary } from "./run-finish.ts";
import type { AuditRunResult, Run, Scan } from "./run-state.ts";

/**
 * Stage 3: whether this run is the audit's first scheduled run here, on a stage whose `firstRun`
 * is `baseline`. First means never recorded: no snapshot item and no run in the ledger, so that
 * an audit with nothing flagged baselines once, not on every run. An ad-hoc run is never one
 * (someone asked to see the fleet), nor one that says `notify` either way (`false` is the manual
 * baseline, which sends nothing).
 */
export async function isFirstRun(
  deps: ResolvedDeps,
  run: Run,
  snapshot: ReadonlyMap<string, SnapshotEntry>,
): Promise<boolean> {
  if (deps.settings.firstRun !== "baseline" || !run.scheduled || run.input.notify !== undefined) return false;
  if (snapshot.size > 0) return false;
  return (await deps.ports.store.recentRuns(run.audit.name, 1)).length === 0;
}

/** Stage 7 of a baseline: how many findings it records, by state, most first. */
export function flaggedByState(scan: Scan): Array<{ state: string; count: number }> {
  const counts = new Map<string, number>();
  for (const f of scan.findings) counts.set(stateOf(f), (counts.get(stateOf(f)) ?? 0) + 1);
  return [...counts]
    .map(([state, count]) => ({ state, count }))
    .sort((a, b) => b.count - a.count || (a.state < b.state ? -1 : 1));
}

/**
 * Stage 8 of a baseline: its one notice. Accepted, every transition counts as told (the report
 * holds them); refused, none does and every one is owed, so that nothing is committed and the
 * next run is the baseline again, notice and all.
 */
export async function tellBaseline(
  deps: ResolvedDeps,
  notice: Parameters<ResolvedDeps["ports"]["publisher"]["publish"]>[0],
  diff: DiffResult,
): Promise<Delivery> {
  try {
    await deps.ports.publisher.publish(notice);
    return { ...toldQuietly(diff), messages: 1 };
  } catch (err) {
    const why = (err as Error).message ?? String(err);
    deps.hooks.log?.warn("the baseline notice could not be published; the next run is the baseline again", {
      error: why,
    });
    return {
      told: new Set(),
      messages: 0,
      refused: new Set(diff.transitions.keys()),
      error: redact(why).slice(0, 300),
    };
  }
}

/**
 * A run that could not start because a secret it needs has no value yet: status `not-configured`,
 * one warning in the log, no throw (a thrown run is an `Errors` alarm per schedule) and no bad run
 * toward `degraded`. A scheduled run tells once: the first sends the `not-configured` notice and
 * remembers it in the audit's health, the next stay quiet until a run gets past the secret.
 * Nothing is recorded in the ledger, so the first configured run is still the audit's first.
 */
export async function notConfigured(
  deps: ResolvedDeps,
  run: Run,
  err: SecretUnreadableError,
): Promise<AuditRunResult> {
  const reason = redact(err.message).slice(0, 600);
  deps.hooks.log?.warn("a secret this audit needs has no value yet: the run ends not-configured", {
    variable: err.variable,
  });
  const result: AuditRunResult = {
    ...emptySummary(run),
    status: "not-configured",
    incompleteReason: reason,
    incompleteCode: err.code,
  };
  const done = (): AuditRunResult => ({ ...result, durationMs: elapsed(run) });
  if (!run.scheduled) return done();
  const health = await deps.ports.store.loadHealth(run.audit.name);
  if (health.notConfigured) return done();
  const since = run.now.toISOString();
  const { landscape, links } = deps.settings;
  const ctx = { audit: run.audit.name, runId: run.id, at: since, ...(landscape ? { landscape } : {}), links };
  try {
    await deps.ports.publisher.publish(notConfiguredNotice(ctx, since, reason));
  } catch (e) {
    deps.hooks.log?.warn("the not-configured notice could not be published; it is sent again next run", {
      error: (e as Error).message,
    });
    return done();
  }
  await deps.ports.store.saveHealth(run.audit.name, { ...health, notConfigured: { since, reason } });
  return done();
}

/** The audit's health without its not-configured episode, once a run got past the secret; else undefined. */
export function configuredNow(health: AuditHealth): AuditHealth | undefined {
  if (!health.notConfigured) return undefined;
  const { notConfigured: _episode, ...rest } = health;
  return rest;
}
