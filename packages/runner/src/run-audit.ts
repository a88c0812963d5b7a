import {
  type AlertPublisher,
  type AuditHealth,
  auditNamed,
  type CommitResult,
  committable,
  type Delivery,
  type DiffResult,
  type DigestContext,
  type DigestMessage,
  diffSnapshot,
  healthNotice,
  keepable,
  LEFT_OUT_LISTED,
  leftOutNews,
  nextHealth,
  type RunSummary,
  renderDigests,
  renderRuntimeMessages,
  reportTransition,
  type SnapshotEntry,
  summarizeTransition,
  type Transition,
  type TransitionRef,
  toldBy,
  toldQuietly,
} from "@fleet-auditor/audit";
import { redact } from "@fleet-auditor/keb";
import { type SourceDeps, sourceFor } from "./audit-source.ts";
import { beforeDeadline } from "./deadline.ts";
import { type Problem, RunDeadlineError, RunInputError } from "./errors.ts";
import type { AuditSource } from "./ports.ts";
import { type AuditRunDeps, type ResolvedDeps, withDefaults } from "./run-deps.ts";
import type { AuditRunInput } from "./run-input.ts";
import type { Run, RunOptions, Scan, State } from "./run-state.ts";

/** A run summary; in a dry run it also carries the messages that would have been published. */
export type AuditRunResult = RunSummary & {
  preview?: Array<Pick<DigestMessage, "subject" | "message" | "attributes">>;
};

/**
 * One audit run. A scheduled time already recorded returns its summary as `duplicate`; a run
 * overlapping another of the same audit returns `skipped`; both publish nothing.
 *
 * 1. Recorded run? A scheduled time already in the ledger returns its summary.
 * 2. Lease: take the audit's lease, or stand back.
 * 3. Scan: list every page of the audit's queries, classifying as pages arrive, while the
 *    snapshot, silences and the audit's health load; scan once more if the inventory moved.
 * 4. Plan (pure): diff the findings against the snapshot.
 * 5. Confirm: the runtimes the snapshot has and the scan did not list are looked up by ID; one
 *    still flagged was missed by the paging and stays; the others say how they ended.
 * 6. Report: keep every transition under the run ID (not in a dry run).
 * 7. Render (pure) the grouped digest; a dry run returns here, with it as a preview.
 * 8. Publish it (a baseline publishes nothing and counts all as told).
 * 9. Commit the snapshot writes whose transitions were told, fenced by the lease.
 * 10. Health: count an incomplete or failed run; the Nth in a row sends one `degraded` notice,
 *     the first good run after it one `recovered`.
 * 11. Summarize, and record the run in the ledger unless a publish failed, so that a retry of
 *     the same scheduled time sends what failed.
 *
 * The lease is released however the run ends; a run that throws still counts for health.
 */
export async function runAudit(
  given: AuditRunDeps,
  input: AuditRunInput,
  options: RunOptions = {},
): Promise<AuditRunResult> {
  const deps = withDefaults(given);
  const run = startRun(deps, input, options);
  const source = sourceFor(run.audit, sourceDeps(deps));
  if (!source.filterable && input.filters) {
    throw new RunInputError([
      { path: "filters", message: `narrow KEB audits only; ${run.audit.name} reads the status table` },
    ]);
  }
  if (run.scheduled) {
    const recorded = await recordedRun(deps, run);
    if (recorded) return recorded;
  }
  if (!run.dryRun && !(await takeLease(deps, run))) return skipped(run);
  let health: AuditHealth | undefined;
  try {
    const [listed, state] = await Promise.all([
      source.read(run),
      beforeDeadline(loadState(deps, run), run.signal, "loading the audit's snapshot"),
    ]);
    health = state.health;
    const confirmed =
      listed.complete && source.confirmAbsent
        ? await source.confirmAbsent(run, listed, state)
        : { scan: listed, endings: new Map<string, string>() };
    const { endings } = confirmed;
    const scan = leaveOut(deps, confirmed.scan);
    const leftOut = leftOutNews(scan.leftOut, state.health.leftOutTold ?? []);
    const diff = planTransitions(deps, run, scan, state, source);
    const transitions = withEndings(diff.transitions, endings);
    const plan = { diff: { ...diff, transitions } };
    const report = run.dryRun ? { stored: true } : await keepReport(deps, run, scan, transitions);
    const { digests, stormFallback } = render(
      deps,
      {
        ...digestContext(deps, run, scan, source.listedWhat, report.stored, state.repeats),
        ...(leftOut.tell.length
          ? { leftOut: { count: leftOut.tell.length, first: leftOut.tell.slice(0, 3) } }
          : {}),
      },
      transitions,
    );
    if (run.dryRun) {
      const preview = digests.map(({ subject, message, attributes }) => ({ subject, message, attributes }));
      return { ...summarize(run, scan, plan, NOTHING_TOLD, NO_WRITES), preview };
    }
    const publishing = input.notify !== false && digests.length > 0;
    if (publishing) await deps.ports.store.beginPublishing(run.audit.name, fence(run));
    const delivery =
      input.notify === false ? toldQuietly(plan.diff) : await publish(deps, digests, report.stored);
    const writes = await commit(deps, run, plan.diff, delivery);
    if (publishing || state.repeats) await deps.ports.store.endPublishing(run.audit.name);
    const ok = scan.complete && delivery.failed === 0;
    const reason = scan.incompleteReason ?? (delivery.failed ? "publishing the digest failed" : null);
    // Left-out findings are remembered as told once this run's messages went out.
    const told = delivery.failed === 0 ? rememberLeftOut(health, leftOut.remember) : undefined;
    const healthAfter = await updateHealth(deps, run, told ?? health, { ok, reason }, told !== undefined);
    const summary = {
      ...summarize(run, scan, plan, delivery, writes),
      ...(transitions.length ? { report } : {}),
      ...(state.repeats && digests.length ? { repeats: state.repeats } : {}),
      ...(stormFallback ? { stormFallback: true } : {}),
      health: healthAfter,
    };
    if (delivery.failed === 0) await record(deps, run, summary);
    return summary;
  } catch (err) {
    if (err instanceof RunDeadlineError && !run.dryRun) return await outOfTime(deps, run, health, err);
    // Blind in another way (a store, the lease): it counts toward `degraded` like an incomplete scan.
    if (!run.dryRun && health) {
      const reason = redact((err as Error).message ?? String(err)).slice(0, 600);
      await updateHealth(deps, run, health, { ok: false, reason }).catch(() => undefined);
    }
    throw err;
  } finally {
    if (!run.dryRun) await deps.ports.store.releaseLease(run.audit.name, run.id);
  }
}

/** Ledger items are capped at 400 KB: keep the first transitions and count the rest. */
export const LEDGER_TRANSITIONS = 500;
const LEDGER_TRANSITION_BYTES = 200_000;

/** The transitions and snapshot writes of a run. */
interface Plan {
  diff: DiffResult;
}

/** What `sourceFor` builds the audit's source from, picked out of the run's dependencies. */
function sourceDeps({ ports, settings, hooks }: ResolvedDeps): SourceDeps {
  return {
    source: ports.source,
    ownSources: ports.ownSources,
    edge: ports.statusStore && { statusStore: ports.statusStore, thresholds: settings.edgeThresholds },
    concurrency: settings.concurrency,
    log: hooks.log,
    onProgress: hooks.onProgress,
  };
}

const NOTHING_TOLD: Delivery = { told: new Set(), messages: 0, failed: 0 };
const NO_WRITES: CommitResult = { written: 0, deleted: 0 };

function startRun(deps: ResolvedDeps, input: AuditRunInput, options: RunOptions): Run {
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

/** Stage 1: the summary of this scheduled time's recorded run, marked `duplicate`. */
async function recordedRun(deps: ResolvedDeps, run: Run): Promise<AuditRunResult | undefined> {
  const done = await deps.ports.store.findRun(run.audit.name, run.runKey);
  if (!done) return undefined;
  deps.hooks.log?.info("scheduled time already audited; nothing to do", {
    runKey: run.runKey,
    previousRunId: done.summary.runId,
  });
  return { ...done.summary, status: "duplicate" };
}

/** Stage 2: true when this run now holds the audit's lease. */
async function takeLease(deps: ResolvedDeps, run: Run): Promise<boolean> {
  const until = new Date(run.startedAt.getTime() + run.leaseMs);
  if (await deps.ports.store.acquireLease(run.audit.name, run.id, run.startedAt, until)) return true;
  deps.hooks.log?.warn("another run of this audit holds the lease; standing back", { audit: run.audit.name });
  return false;
}

/**
 * A run whose deadline passed before it could plan: it publishes and commits nothing, counts as a
 * bad run toward `degraded` (its health is read now if the state never arrived), and says why.
 */
async function outOfTime(
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

/** Read alongside the scan: the audit's snapshot, the silences in force and its health. */
async function loadState(deps: ResolvedDeps, run: Run): Promise<State> {
  const [previous, silences, health, unfinished] = await Promise.all([
    deps.ports.store.loadSnapshot(run.audit.name),
    deps.ports.silences?.active(run.now) ?? Promise.resolve([]),
    deps.ports.store.loadHealth(run.audit.name),
    deps.ports.store.unfinishedPublishing(run.audit.name),
  ]);
  return {
    previous,
    silences,
    health,
    ...(unfinished && unfinished !== run.id ? { repeats: unfinished } : {}),
  };
}

/** Stage 4 (pure): the transitions and snapshot writes. */
function planTransitions(
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
    complete: scan.complete,
    ...(source.covers
      ? { inScope: (entry: SnapshotEntry) => source.covers?.(run, entry.finding) ?? true }
      : {}),
    now: run.now,
    policy: deps.settings.policy,
    silences: state.silences,
  });
}

/** The health item with the left-out findings told so far, or undefined when that is unchanged. */
function rememberLeftOut(health: AuditHealth, remember: readonly string[]): AuditHealth | undefined {
  const before = health.leftOutTold ?? [];
  if (before.length === remember.length && before.every((d, i) => d === remember[i])) return undefined;
  const { leftOutTold: _old, ...rest } = health;
  return remember.length ? { ...rest, leftOutTold: [...remember] } : rest;
}

/**
 * Stage 4, first: what the run cannot keep (`keepable`: a finding that cannot be stored, a second
 * finding under one key) is left out before the diff, so nothing is published that the commit
 * would then refuse; it is counted in the summary and told once.
 */
function leaveOut(deps: ResolvedDeps, scan: Scan): Scan {
  const { findings, leftOut } = keepable(scan.findings);
  if (leftOut.length === 0) return scan;
  deps.hooks.log?.warn("findings that cannot be kept were left out", {
    count: leftOut.length,
    first: leftOut.slice(0, 5).map(({ key, reason }) => ({ key, reason })),
  });
  return { ...scan, findings, leftOut: [...scan.leftOut, ...leftOut] };
}

/** How each resolved finding ended, from the confirmation lookup. */
function withEndings(transitions: Transition[], endings: ReadonlyMap<string, string>): Transition[] {
  return transitions.map((t) => {
    const ending = t.kind === "resolved" ? endings.get(t.key) : undefined;
    return ending === undefined ? t : { ...t, ending };
  });
}

/**
 * Stage 6: every transition under the run ID, for as long as the ledger keeps the run. A report
 * that cannot be stored is logged, and messages then count as told only what they name.
 */
async function keepReport(
  deps: ResolvedDeps,
  run: Run,
  scan: Scan,
  transitions: readonly Transition[],
): Promise<{ stored: boolean }> {
  if (transitions.length === 0 || !deps.ports.reports) return { stored: false };
  const { transitions: _t, ...summary } = summarize(
    run,
    scan,
    { diff: { transitions: [], changes: [] } },
    NOTHING_TOLD,
    NO_WRITES,
  );
  try {
    await deps.ports.reports.saveReport(
      {
        runId: run.id,
        audit: run.audit.name,
        runKey: run.runKey,
        scheduledTime: run.scheduledTime,
        startedAt: run.startedAt.toISOString(),
        ...(deps.settings.landscape ? { landscape: deps.settings.landscape } : {}),
        summary,
        transitions: transitions.map((t) => reportTransition(t, run.audit.presenter)),
      },
      expiresAt(deps, run),
    );
    return { stored: true };
  } catch (err) {
    deps.hooks.log?.warn("the run report could not be stored; messages count as told only what they name", {
      error: (err as Error).message,
    });
    return { stored: false };
  }
}

/**
 * Stage 7: the messages of the run. Per-runtime mode sends one per transition, and falls back to
 * the grouped digest above the storm threshold, so that a region-wide outage is one message.
 */
function render(
  deps: ResolvedDeps,
  ctx: DigestContext,
  transitions: readonly Transition[],
): { digests: DigestMessage[]; stormFallback: boolean } {
  if (deps.settings.notifyMode !== "per-runtime")
    return { digests: renderDigests(ctx, transitions), stormFallback: false };
  // Per-runtime messages are about one runtime each: left-out findings get a digest of their own.
  const { leftOut, ...perRuntime } = ctx;
  const leftOutDigest = leftOut ? renderDigests({ ...perRuntime, leftOut }, [], transitions.length) : [];
  const visible = transitions.filter((t) => t.silencedBy === undefined).length;
  if (visible > deps.settings.stormThreshold) {
    return { digests: renderDigests(ctx, transitions), stormFallback: true };
  }
  return {
    digests: [...renderRuntimeMessages(perRuntime, transitions), ...leftOutDigest],
    stormFallback: false,
  };
}

/** Stage 7: what the digest says about the run and where it points. */
function digestContext(
  deps: ResolvedDeps,
  run: Run,
  scan: Scan,
  listedWhat: string,
  reportStored: boolean,
  repeats?: string,
): DigestContext {
  return {
    ...(repeats ? { repeats } : {}),
    audit: run.audit.name,
    groupBy: run.audit.groupBy,
    presenter: run.audit.presenter,
    runId: run.id,
    at: run.now.toISOString(),
    complete: scan.complete,
    incompleteReason: scan.incompleteReason,
    listed: scan.listed,
    ...(listedWhat !== "runtimes" ? { listedWhat } : {}),
    flagged: scan.findings.length,
    ...(deps.settings.landscape ? { landscape: deps.settings.landscape } : {}),
    ...(deps.settings.links ? { links: deps.settings.links } : {}),
    ...(deps.settings.collapseAt !== undefined ? { collapseAt: deps.settings.collapseAt } : {}),
    report: {
      stored: reportStored,
      command: deps.settings.reportCommand(run.id),
    },
  };
}

/**
 * Stage 8: each message once (several in batches when the publisher can); a refused one is
 * logged and its transitions stay untold, the others are told; one taken only in its short
 * form (refused as too long) tells what that form tells.
 */
async function publish(
  deps: ResolvedDeps,
  digests: readonly DigestMessage[],
  reportStored: boolean,
): Promise<Delivery> {
  const told = new Set<TransitionRef>();
  let messages = 0;
  let failed = 0;
  let error: string | undefined;
  let shortened = 0;
  const outcome = (digest: DigestMessage, refused?: string, short?: boolean): void => {
    if (refused === undefined) {
      messages++;
      // Refused as too long, the digest went out in its short form, which names none: it tells
      // its transitions only if the report holding them was stored (`delivery.ts`).
      if (short && digest.short) {
        shortened++;
        deps.hooks.log?.warn("SNS refused a digest as too long; its short form was sent instead", {
          transitions: digest.transitions.length + digest.omitted.length,
          reportStored,
        });
      }
      for (const ref of toldBy(short && digest.short ? digest.short : digest, reportStored)) told.add(ref);
      return;
    }
    failed += toldBy(digest, true).length;
    error ??= redact(refused).slice(0, 300);
    deps.hooks.log?.warn("publish failed; these transitions will be sent again next run", {
      error: refused,
      transitions: digest.transitions.length + digest.omitted.length,
    });
  };
  if (digests.length > 1 && deps.ports.publisher.publishBatch) {
    const outcomes = await deps.ports.publisher.publishBatch(digests);
    for (const [i, digest] of digests.entries()) {
      const o = outcomes[i];
      if (o?.ok) outcome(digest, undefined, o.shortened);
      else outcome(digest, o?.error ?? "no outcome for this message");
    }
  } else {
    for (const digest of digests) {
      let published: Awaited<ReturnType<AlertPublisher["publish"]>>;
      try {
        published = await deps.ports.publisher.publish(digest);
      } catch (err) {
        outcome(digest, (err as Error).message ?? String(err));
        continue;
      }
      outcome(digest, undefined, published.shortened);
    }
  }
  return { told, messages, failed, ...(error ? { error } : {}), ...(shortened ? { shortened } : {}) };
}

/** Stage 9: the writes whose transitions were told; throws `LeaseLostError` if the lease was lost. */
function commit(deps: ResolvedDeps, run: Run, diff: DiffResult, delivery: Delivery): Promise<CommitResult> {
  return deps.ports.store.commit(run.audit.name, committable(diff, delivery.told), fence(run));
}

/** The lease this run must still hold for a write that depends on it, extended from now. */
function fence(run: Run): { owner: string; until: Date } {
  return { owner: run.id, until: new Date(run.clock().getTime() + run.leaseMs) };
}

/**
 * Stage 10: the audit's health after this run, written only when it changed, and the notice it
 * owes. A notice that could not be published is owed again next run.
 */
async function updateHealth(
  deps: ResolvedDeps,
  run: Run,
  previous: AuditHealth,
  outcome: { ok: boolean; reason: string | null },
  /** `previous` differs from what is stored (what was told of left-out findings): write it. */
  dirty = false,
): Promise<NonNullable<RunSummary["health"]>> {
  const step = nextHealth(
    previous,
    { ...outcome, at: run.now.toISOString() },
    deps.settings.degradedAfterRuns,
  );
  let health = step.health;
  let sent: "degraded" | "recovered" | undefined;
  if (step.notice) {
    try {
      await deps.ports.publisher.publish(
        healthNotice(
          {
            audit: run.audit.name,
            runId: run.id,
            at: run.now.toISOString(),
            landscape: deps.settings.landscape,
          },
          step.notice,
          health,
          previous,
        ),
      );
      sent = step.notice;
      if (sent === "degraded") health = { ...health, degradedNotified: true };
    } catch (err) {
      deps.hooks.log?.warn(`the ${step.notice} notice could not be published; it is sent again next run`, {
        error: (err as Error).message,
      });
      // A recovered notice still owed: keep the episode open until it goes out.
      if (step.notice === "recovered") health = previous;
    }
  }
  if (step.changed || sent || dirty) await deps.ports.store.saveHealth(run.audit.name, health);
  return { badRuns: health.badRuns, badSince: health.badSince, ...(sent ? { notice: sent } : {}) };
}

/** Stage 11: the run summary every caller gets. */
function summarize(
  run: Run,
  scan: Scan,
  plan: Plan,
  delivery: Delivery,
  writes: CommitResult,
): AuditRunResult {
  const transitions = plan.diff.transitions;
  return {
    ...emptySummary(run),
    complete: scan.complete,
    incompleteReason: scan.incompleteReason,
    ...(scan.incompleteCode ? { incompleteCode: scan.incompleteCode } : {}),
    queries: scan.queries,
    flagged: scan.findings.length,
    transitions: transitions.map(summarizeTransition),
    ...(scan.leftOut.length
      ? {
          unstorable: scan.leftOut
            .slice(0, LEFT_OUT_LISTED)
            .map((l) => ({ instanceID: l.key, reason: l.reason })),
          unstorableCount: scan.leftOut.length,
        }
      : {}),
    ...(scan.rescans ? { rescans: scan.rescans } : {}),
    notified: {
      messages: delivery.messages,
      transitions: delivery.quiet ? 0 : delivery.told.size,
      failed: delivery.failed,
      suppressed: transitions.filter((t) => t.silencedBy).length,
      ...(delivery.error ? { error: delivery.error } : {}),
      ...(delivery.shortened ? { shortened: delivery.shortened } : {}),
    },
    writes: { snapshot: writes.written, deleted: writes.deleted },
    durationMs: elapsed(run),
  };
}

function emptySummary(run: Run): RunSummary {
  return {
    audit: run.audit.name,
    runId: run.id,
    scheduledTime: run.scheduledTime,
    dryRun: run.dryRun,
    status: "completed",
    complete: false,
    incompleteReason: null,
    queries: [],
    flagged: 0,
    transitions: [],
    notified: { messages: 0, transitions: 0, failed: 0, suppressed: 0 },
    writes: { snapshot: 0, deleted: 0 },
    startedAt: run.startedAt.toISOString(),
    durationMs: 0,
  };
}

const elapsed = (run: Run): number => run.clock().getTime() - run.startedAt.getTime();

/** Stage 11: the run's ledger record (a retry of its scheduled time then returns `duplicate`). */
async function record(deps: ResolvedDeps, run: Run, summary: RunSummary): Promise<void> {
  await deps.ports.store.recordRun({
    audit: run.audit.name,
    runKey: run.runKey,
    summary: forLedger(summary),
    expiresAt: expiresAt(deps, run),
  });
}

/** When the run's ledger item and report expire (DynamoDB TTL, epoch seconds). */
function expiresAt(deps: ResolvedDeps, run: Run): number {
  const retentionS = deps.settings.ledgerRetentionDays * 86_400;
  return Math.floor(run.startedAt.getTime() / 1000) + retentionS;
}

function forLedger(summary: RunSummary): RunSummary {
  // Both a count and bytes: a transition names its key, and a key may be ~1 KB.
  let kept = 0;
  let bytes = 0;
  for (const t of summary.transitions) {
    bytes += Buffer.byteLength(JSON.stringify(t));
    if (kept === LEDGER_TRANSITIONS || bytes > LEDGER_TRANSITION_BYTES) break;
    kept++;
  }
  if (kept === summary.transitions.length) return summary;
  return {
    ...summary,
    transitions: summary.transitions.slice(0, kept),
    transitionsOmitted: summary.transitions.length - kept,
  };
}
