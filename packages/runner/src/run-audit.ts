import {
  type AlertPolicy,
  type AlertPublisher,
  AUDITS,
  type AuditDefinition,
  type AuditHealth,
  type AuditStateStore,
  auditNamed,
  type CommitResult,
  committable,
  DEFAULT_POLICY,
  type Delivery,
  type DiffResult,
  type DigestContext,
  type DigestMessage,
  diffSnapshot,
  healthNotice,
  keepable,
  LEFT_OUT_LISTED,
  type LinkTemplates,
  leftOutNews,
  nextHealth,
  type RunReportStore,
  type RunSummary,
  renderDigests,
  renderRuntimeMessages,
  reportCommand,
  reportTransition,
  type SilenceSource,
  type SnapshotEntry,
  summarizeTransition,
  type Transition,
  type TransitionRef,
  toldBy,
  toldQuietly,
} from "@fleet-auditor/audit";
import { type RuntimeSource, redact } from "@fleet-auditor/keb";
import type { ApplicationStatusStore, EdgeThresholds } from "@fleet-auditor/metaserver";
import { sourceFor } from "./audit-source.ts";
import { beforeDeadline } from "./deadline.ts";
import { type Problem, RunDeadlineError, RunInputError } from "./errors.ts";
import type { AuditSource, RunLogger } from "./ports.ts";
import type { AuditRunInput } from "./run-input.ts";
import type { Run, RunOptions, Scan, State } from "./run-state.ts";

const DEFAULT_LEASE_MS = 15 * 60_000;
// EventBridge Scheduler retries a delivery for up to 24 h: a late scheduled time is normal.
const DEFAULT_MAX_SKEW_MS = 48 * 3_600_000;
const DEFAULT_LEDGER_RETENTION_DAYS = 30;
const DEFAULT_STORM_THRESHOLD = 20;

/** Everything a run needs; the composition root (function, CLI) builds it once. */
export interface AuditRunDeps {
  /** KEB, for the KEB audits (`failing`, `expired`). */
  source?: RuntimeSource;
  /** The Application status table and its thresholds, for the `applications` audit. */
  edge?: { statusStore: ApplicationStatusStore; thresholds?: EdgeThresholds };
  /** Sources of audits that bring their own (`source: "own"`), by audit name. */
  ownSources?: ReadonlyMap<string, AuditSource>;
  store: AuditStateStore;
  publisher: AlertPublisher;
  silences?: SilenceSource;
  policy?: AlertPolicy;
  audits?: readonly AuditDefinition[];
  clock?: () => Date;
  newId?: () => string;
  /** KEB requests in flight. Default 4. */
  concurrency?: number;
  /** How long the audit's lease lasts; longer than a run can take. Default 15 min. */
  leaseMs?: number;
  /** Ledger items and run reports are kept this long. Default 30 days. */
  ledgerRetentionDays?: number;
  /** Where every transition of a run is kept; without it, messages can only tell what they name. */
  reports?: RunReportStore;
  /** The command that prints a run's report, quoted in messages. Default `fleet-auditor runs show <id>`. */
  reportCommand?: (runId: string) => string;
  /** The landscape's name, in every subject and title. */
  landscape?: string;
  links?: LinkTemplates;
  /** Groups larger than this are one line in messages. Default 20. */
  collapseAt?: number;
  /**
   * `digest` (default): one grouped message per run. `per-runtime`: one message per transition,
   * threaded per runtime incident, unless a run has more than `stormThreshold` (default 20).
   */
  notifyMode?: "digest" | "per-runtime";
  stormThreshold?: number;
  /** Consecutive incomplete or failed runs before one `degraded` notice. Default 3. */
  degradedAfterRuns?: number;
  /** `now` and `scheduledTime` of a run that writes must be this close to the clock. Default 48 h. */
  maxClockSkewMs?: number;
  log?: RunLogger;
  onProgress?: (done: number, total: number) => void;
}

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
  deps: AuditRunDeps,
  input: AuditRunInput,
  options: RunOptions = {},
): Promise<AuditRunResult> {
  const run = startRun(deps, input, options);
  const source = sourceFor(run.audit, deps);
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
    if (publishing) await deps.store.beginPublishing(run.audit.name, fence(run));
    const delivery =
      input.notify === false ? toldQuietly(plan.diff) : await publish(deps, digests, report.stored);
    const writes = await commit(deps, run, plan.diff, delivery);
    if (publishing || state.repeats) await deps.store.endPublishing(run.audit.name);
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
    if (!run.dryRun) await deps.store.releaseLease(run.audit.name, run.id);
  }
}

/** Ledger items are capped at 400 KB: keep the first transitions and count the rest. */
export const LEDGER_TRANSITIONS = 500;
const LEDGER_TRANSITION_BYTES = 200_000;

/** The transitions and snapshot writes of a run. */
interface Plan {
  diff: DiffResult;
}

const NOTHING_TOLD: Delivery = { told: new Set(), messages: 0, failed: 0 };
const NO_WRITES: CommitResult = { written: 0, deleted: 0 };

function startRun(deps: AuditRunDeps, input: AuditRunInput, options: RunOptions): Run {
  const audit = auditNamed(input.audit, deps.audits ?? AUDITS);
  const clock = deps.clock ?? (() => new Date());
  const startedAt = clock();
  const id = (deps.newId ?? (() => crypto.randomUUID()))();
  const dryRun = input.dryRun ?? false;
  const scheduledTime = input.scheduledTime ? new Date(input.scheduledTime).toISOString() : null;
  if (!dryRun) refuseSkew(input, startedAt, deps.maxClockSkewMs ?? DEFAULT_MAX_SKEW_MS);
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
    leaseMs: deps.leaseMs ?? DEFAULT_LEASE_MS,
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
async function recordedRun(deps: AuditRunDeps, run: Run): Promise<AuditRunResult | undefined> {
  const done = await deps.store.findRun(run.audit.name, run.runKey);
  if (!done) return undefined;
  deps.log?.info("scheduled time already audited; nothing to do", {
    runKey: run.runKey,
    previousRunId: done.summary.runId,
  });
  return { ...done.summary, status: "duplicate" };
}

/** Stage 2: true when this run now holds the audit's lease. */
async function takeLease(deps: AuditRunDeps, run: Run): Promise<boolean> {
  const until = new Date(run.startedAt.getTime() + run.leaseMs);
  if (await deps.store.acquireLease(run.audit.name, run.id, run.startedAt, until)) return true;
  deps.log?.warn("another run of this audit holds the lease; standing back", { audit: run.audit.name });
  return false;
}

/**
 * A run whose deadline passed before it could plan: it publishes and commits nothing, counts as a
 * bad run toward `degraded` (its health is read now if the state never arrived), and says why.
 */
async function outOfTime(
  deps: AuditRunDeps,
  run: Run,
  known: AuditHealth | undefined,
  err: RunDeadlineError,
): Promise<AuditRunResult> {
  const reason = err.message;
  deps.log?.warn("the run's deadline passed: it ends incomplete", { stage: err.stage });
  const health = known ?? (await deps.store.loadHealth(run.audit.name));
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
async function loadState(deps: AuditRunDeps, run: Run): Promise<State> {
  const [previous, silences, health, unfinished] = await Promise.all([
    deps.store.loadSnapshot(run.audit.name),
    deps.silences?.active(run.now) ?? Promise.resolve([]),
    deps.store.loadHealth(run.audit.name),
    deps.store.unfinishedPublishing(run.audit.name),
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
  deps: AuditRunDeps,
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
    policy: deps.policy ?? DEFAULT_POLICY,
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
function leaveOut(deps: AuditRunDeps, scan: Scan): Scan {
  const { findings, leftOut } = keepable(scan.findings);
  if (leftOut.length === 0) return scan;
  deps.log?.warn("findings that cannot be kept were left out", {
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
  deps: AuditRunDeps,
  run: Run,
  scan: Scan,
  transitions: readonly Transition[],
): Promise<{ stored: boolean }> {
  if (transitions.length === 0 || !deps.reports) return { stored: false };
  const { transitions: _t, ...summary } = summarize(
    run,
    scan,
    { diff: { transitions: [], changes: [] } },
    NOTHING_TOLD,
    NO_WRITES,
  );
  try {
    await deps.reports.saveReport(
      {
        runId: run.id,
        audit: run.audit.name,
        runKey: run.runKey,
        scheduledTime: run.scheduledTime,
        startedAt: run.startedAt.toISOString(),
        ...(deps.landscape ? { landscape: deps.landscape } : {}),
        summary,
        transitions: transitions.map((t) => reportTransition(t, run.audit.presenter)),
      },
      expiresAt(deps, run),
    );
    return { stored: true };
  } catch (err) {
    deps.log?.warn("the run report could not be stored; messages count as told only what they name", {
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
  deps: AuditRunDeps,
  ctx: DigestContext,
  transitions: readonly Transition[],
): { digests: DigestMessage[]; stormFallback: boolean } {
  if (deps.notifyMode !== "per-runtime")
    return { digests: renderDigests(ctx, transitions), stormFallback: false };
  // Per-runtime messages are about one runtime each: left-out findings get a digest of their own.
  const { leftOut, ...perRuntime } = ctx;
  const leftOutDigest = leftOut ? renderDigests({ ...perRuntime, leftOut }, [], transitions.length) : [];
  const visible = transitions.filter((t) => t.silencedBy === undefined).length;
  if (visible > (deps.stormThreshold ?? DEFAULT_STORM_THRESHOLD)) {
    return { digests: renderDigests(ctx, transitions), stormFallback: true };
  }
  return {
    digests: [...renderRuntimeMessages(perRuntime, transitions), ...leftOutDigest],
    stormFallback: false,
  };
}

// The run ID is a UUID from `newId`, but a caller may choose it: quoted like every command, and
// one that cannot be pasted safely points to the list of runs instead.
const defaultReportCommand = (id: string): string => reportCommand(id) ?? "fleet-auditor runs list";

/** Stage 7: what the digest says about the run and where it points. */
function digestContext(
  deps: AuditRunDeps,
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
    ...(deps.landscape ? { landscape: deps.landscape } : {}),
    ...(deps.links ? { links: deps.links } : {}),
    ...(deps.collapseAt !== undefined ? { collapseAt: deps.collapseAt } : {}),
    report: {
      stored: reportStored,
      command: (deps.reportCommand ?? defaultReportCommand)(run.id),
    },
  };
}

/**
 * Stage 8: each message once (several in batches when the publisher can); a refused one is
 * logged and its transitions stay untold, the others are told; one taken only in its short
 * form (refused as too long) tells what that form tells.
 */
async function publish(
  deps: AuditRunDeps,
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
        deps.log?.warn("SNS refused a digest as too long; its short form was sent instead", {
          transitions: digest.transitions.length + digest.omitted.length,
          reportStored,
        });
      }
      for (const ref of toldBy(short && digest.short ? digest.short : digest, reportStored)) told.add(ref);
      return;
    }
    failed += toldBy(digest, true).length;
    error ??= redact(refused).slice(0, 300);
    deps.log?.warn("publish failed; these transitions will be sent again next run", {
      error: refused,
      transitions: digest.transitions.length + digest.omitted.length,
    });
  };
  if (digests.length > 1 && deps.publisher.publishBatch) {
    const outcomes = await deps.publisher.publishBatch(digests);
    for (const [i, digest] of digests.entries()) {
      const o = outcomes[i];
      if (o?.ok) outcome(digest, undefined, o.shortened);
      else outcome(digest, o?.error ?? "no outcome for this message");
    }
  } else {
    for (const digest of digests) {
      let published: Awaited<ReturnType<AuditRunDeps["publisher"]["publish"]>>;
      try {
        published = await deps.publisher.publish(digest);
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
function commit(deps: AuditRunDeps, run: Run, diff: DiffResult, delivery: Delivery): Promise<CommitResult> {
  return deps.store.commit(run.audit.name, committable(diff, delivery.told), fence(run));
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
  deps: AuditRunDeps,
  run: Run,
  previous: AuditHealth,
  outcome: { ok: boolean; reason: string | null },
  /** `previous` differs from what is stored (what was told of left-out findings): write it. */
  dirty = false,
): Promise<NonNullable<RunSummary["health"]>> {
  const step = nextHealth(previous, { ...outcome, at: run.now.toISOString() }, deps.degradedAfterRuns);
  let health = step.health;
  let sent: "degraded" | "recovered" | undefined;
  if (step.notice) {
    try {
      await deps.publisher.publish(
        healthNotice(
          { audit: run.audit.name, runId: run.id, at: run.now.toISOString(), landscape: deps.landscape },
          step.notice,
          health,
          previous,
        ),
      );
      sent = step.notice;
      if (sent === "degraded") health = { ...health, degradedNotified: true };
    } catch (err) {
      deps.log?.warn(`the ${step.notice} notice could not be published; it is sent again next run`, {
        error: (err as Error).message,
      });
      // A recovered notice still owed: keep the episode open until it goes out.
      if (step.notice === "recovered") health = previous;
    }
  }
  if (step.changed || sent || dirty) await deps.store.saveHealth(run.audit.name, health);
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
async function record(deps: AuditRunDeps, run: Run, summary: RunSummary): Promise<void> {
  await deps.store.recordRun({
    audit: run.audit.name,
    runKey: run.runKey,
    summary: forLedger(summary),
    expiresAt: expiresAt(deps, run),
  });
}

/** When the run's ledger item and report expire (DynamoDB TTL, epoch seconds). */
function expiresAt(deps: AuditRunDeps, run: Run): number {
  const retentionS = (deps.ledgerRetentionDays ?? DEFAULT_LEDGER_RETENTION_DAYS) * 86_400;
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
