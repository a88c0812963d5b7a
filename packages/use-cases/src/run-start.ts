// A run begins: its identity and clock (`startRun`), whether its scheduled time was already
// recorded, the audit's lease, and how a run out of time ends. Stages 1 and 2 of `runAudit` (and
// the ledger's second look, in stage 3).

import type { AuditDefinition, AuditHealth } from "@fleet-auditor/audit";
import { type Problem, type RunDeadlineError, RunInputError } from "./errors.ts";
import { routesFor } from "./route-config.ts";
import type { ResolvedDeps } from "./run-deps.ts";
import { elapsed, emptySummary, updateHealth } from "./run-finish.ts";
import type { AuditRunInput } from "./run-input.ts";
import type { AuditRunResult, Run, RunOptions } from "./run-state.ts";

/** A run of `audit` (the registry's, grouped as configured) begins: its identity and clock. */
export function startRun(
  deps: ResolvedDeps,
  audit: AuditDefinition,
  input: AuditRunInput,
  options: RunOptions,
): Run {
  const { clock } = deps.hooks;
  const startedAt = clock();
  const id = deps.hooks.newId();
  const dryRun = input.dryRun ?? false;
  const scheduledTime = input.scheduledTime ? new Date(input.scheduledTime).toISOString() : null;
  if (!dryRun) refuseSkew(input, startedAt, deps.settings.maxClockSkewMs);
  return {
    audit,
    routes: routesFor(deps.settings, audit),
    input,
    id,
    dryRun,
    clock,
    startedAt,
    now: input.now ? new Date(input.now) : startedAt,
    scheduledTime,
    scheduled: !dryRun && scheduledTime !== null,
    runKey: scheduledTime ? `sched:${scheduledTime}` : `adhoc:${startedAt.toISOString()}:${id}`,
    leaseMs: deps.settings.leaseMs,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.deadlineAt !== undefined ? { deadlineAt: options.deadlineAt } : {}),
  };
}

/**
 * A run that writes may not judge by a time far from the clock: `--now 2100-01-01` would record
 * reminders as sent in 2100 and silence the audit for decades. Dry runs may look anywhere.
 */
function refuseSkew(input: AuditRunInput, clock: Date, maxSkewMs: number): void {
  const problems: Problem[] = [];
  for (const field of ["now", "scheduledTime"] as const) {
    const value = input[field];
    if (value === undefined) continue;
    const skew = Math.abs(Date.parse(value) - clock.getTime());
    if (skew > maxSkewMs) {
      problems.push({
        path: field,
        message: `${value} is ${Math.round(skew / 3_600_000)} h from the clock (at most ${maxSkewMs / 3_600_000} h unless dryRun)`,
      });
    }
  }
  if (problems.length) throw new RunInputError(problems);
}

/**
 * Stages 1 and 2: the run's result when it ends here (its scheduled time already recorded:
 * `duplicate`; another run holds the lease: `skipped`), or undefined when it goes on, holding
 * the lease (a dry run takes none). The ledger first: a duplicate never touches the lease, so a
 * late second delivery of one hour cannot make the next hour's run stand back.
 */
async function beginRun(deps: ResolvedDeps, run: Run): Promise<AuditRunResult | undefined> {
  if (run.dryRun) return undefined;
  const recorded = await recordedRun(deps, run);
  if (recorded) return recorded;
  const until = new Date(run.startedAt.getTime() + run.leaseMs);
  if (await deps.ports.store.acquireLease(run.audit.name, run.id, run.startedAt, until)) return undefined;
  deps.hooks.log?.warn("another run of this audit holds the lease; standing back", { audit: run.audit.name });
  return skipped(run);
}

/** The reason a read begun beside the lease is aborted with when its run stands back. */
const STOOD_BACK = new Error("the run stood back (duplicate or skipped) before it used what it read");

/**
 * Whether a read's signal aborted because its run stood back (`duplicate`, `skipped`) or could
 * not take the lease: what it read is not used, and its breaking off is no failure to report.
 */
export function stoodBack(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true && signal.reason === STOOD_BACK;
}

/** A read begun beside stages 1 and 2: what it will find, and how to stop it. */
export interface BegunRead<T> {
  reading: Promise<T>;
  /** Aborts the read if it still runs and waits until it has stopped; never throws. */
  abandon(): Promise<void>;
}

/**
 * Stages 1 to 3 begun together: a source that may read before the lease (`early`: one that
 * stops when the run's signal aborts and leaves nothing running, KEB's pages) starts at once,
 * beside the ledger's look and the lease's take (`beginRun`), so that their round trips pass
 * while the first pages are on their way instead of before them. A read has no effect outside
 * the process; what it found is used only by a run that goes on holding the lease. When the run
 * ends there (`duplicate`, `skipped`) or the ledger or the lease cannot be reached, the read is
 * aborted (`stoodBack`) and awaited before this returns or throws; after it, the caller abandons
 * the read on whatever ends the run, so that nothing it started outlives the run.
 */
export async function beginBeside<T>(
  deps: ResolvedDeps,
  run: Run,
  read: (run: Run) => Promise<T>,
  early: boolean,
): Promise<{ ended: AuditRunResult } | BegunRead<T>> {
  const stop = new AbortController();
  const signal = run.signal ? AbortSignal.any([run.signal, stop.signal]) : stop.signal;
  const begin = (): BegunRead<T> => {
    const reading = read({ ...run, signal });
    // Awaited by the caller or by abandon; until then a failed read must not count as unhandled.
    reading.catch(() => undefined);
    return {
      reading,
      abandon: async () => {
        stop.abort(STOOD_BACK);
        await reading.catch(() => undefined);
      },
    };
  };
  if (run.dryRun) return begin();
  if (!early) {
    const ended = await beginRun(deps, run);
    return ended ? { ended } : begin();
  }
  const begun = begin();
  const ended = await beginRun(deps, run).catch(async (err: unknown) => {
    await begun.abandon();
    throw err;
  });
  if (!ended) return begun;
  await begun.abandon();
  return { ended };
}

/**
 * The summary of this scheduled time's recorded run, marked `duplicate`, if it has one. Asked
 * in stage 1, before the lease, and again in stage 3, while the run reads: a second delivery that read the
 * ledger just before the first run recorded, and took the lease just after it was released,
 * learns there that it repeats a finished run, before it tells anything.
 */
export async function recordedRun(deps: ResolvedDeps, run: Run): Promise<AuditRunResult | undefined> {
  if (!run.scheduled) return undefined;
  const done = await deps.ports.store.findRun(run.audit.name, run.runKey);
  if (!done) return undefined;
  deps.hooks.log?.info("scheduled time already audited; nothing to do", {
    runKey: run.runKey,
    previousRunId: done.summary.runId,
  });
  return { ...done.summary, status: "duplicate" };
}

/**
 * A run whose deadline passed before it could plan: it publishes and commits nothing, counts as a
 * bad run toward `degraded` (its health is read now if the state never arrived), and says why.
 */
export async function outOfTime(
  deps: ResolvedDeps,
  run: Run,
  known: AuditHealth | undefined,
  err: RunDeadlineError,
): Promise<AuditRunResult> {
  const reason = err.message;
  deps.hooks.log?.warn("the run's deadline passed: it ends incomplete", { stage: err.stage });
  const health = known ?? (await deps.ports.store.loadHealth(run.audit.name));
  const healthAfter = await updateHealth(deps, run, health, { ok: false, reason });
  return {
    ...emptySummary(run),
    incompleteReason: reason,
    incompleteCode: "RUN_DEADLINE",
    health: healthAfter,
    durationMs: elapsed(run),
  };
}

function skipped(run: Run): AuditRunResult {
  return {
    ...emptySummary(run),
    status: "skipped",
    incompleteReason: "another run of this audit was in progress",
    durationMs: elapsed(run),
  };
}
