// A run begins: its identity and clock (`startRun`), whether its scheduled time was already
// recorded, the audit's lease, and how a run out of time ends. Stages 1 and 2 of `runAudit`.

import { type AuditHealth, auditNamed } from "@fleet-auditor/audit";
import type { SourceDeps } from "./audit-source.ts";
import { type Problem, type RunDeadlineError, RunInputError } from "./errors.ts";
import type { ResolvedDeps } from "./run-deps.ts";
import { elapsed, emptySummary, updateHealth } from "./run-finish.ts";
import type { AuditRunInput } from "./run-input.ts";
import type { AuditRunResult, Run, RunOptions } from "./run-state.ts";

/** What `sourceFor` builds the audit's source from, picked out of the run's dependencies. */
export function sourceDeps({ ports, settings, hooks }: ResolvedDeps): SourceDeps {
  return {
    source: ports.source,
    ownSources: ports.ownSources,
    statusSource: ports.statusSource,
    concurrency: settings.concurrency,
    log: hooks.log,
    onProgress: hooks.onProgress,
  };
}

export function startRun(deps: ResolvedDeps, input: AuditRunInput, options: RunOptions): Run {
  const audit = auditNamed(input.audit, deps.settings.audits);
  const { clock } = deps.hooks;
  const startedAt = clock();
  const id = deps.hooks.newId();
  const dryRun = input.dryRun ?? false;
  const scheduledTime = input.scheduledTime ? new Date(input.scheduledTime).toISOString() : null;
  if (!dryRun) refuseSkew(input, startedAt, deps.settings.maxClockSkewMs);
  return {
    audit,
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
 * the lease (a dry run takes none). A scheduled run asks the ledger and for the lease at once,
 * one round trip fewer on every run: the ledger's answer wins, and a duplicate gives back the
 * lease it took meanwhile.
 */
export async function beginRun(deps: ResolvedDeps, run: Run): Promise<AuditRunResult | undefined> {
  if (run.dryRun) return undefined;
  const until = new Date(run.startedAt.getTime() + run.leaseMs);
  const leasing = deps.ports.store.acquireLease(run.audit.name, run.id, run.startedAt, until);
  const [recorded, leased] = await Promise.allSettled([
    run.scheduled ? deps.ports.store.findRun(run.audit.name, run.runKey) : undefined,
    leasing,
  ]);
  const held = leased.status === "fulfilled" && leased.value;
  if (recorded.status === "rejected" || recorded.value) {
    if (held) await deps.ports.store.releaseLease(run.audit.name, run.id);
    if (recorded.status === "rejected") throw recorded.reason;
    const done = recorded.value as NonNullable<typeof recorded.value>;
    deps.hooks.log?.info("scheduled time already audited; nothing to do", {
      runKey: run.runKey,
      previousRunId: done.summary.runId,
    });
    return { ...done.summary, status: "duplicate" };
  }
  if (leased.status === "rejected") throw leased.reason;
  if (held) return undefined;
  deps.hooks.log?.warn("another run of this audit holds the lease; standing back", { audit: run.audit.name });
  return skipped(run);
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
