import {
  type AlertPolicy,
  type AlertPublisher,
  AUDITS,
  type AuditDefinition,
  type AuditStateStore,
  auditNamed,
  type CommitResult,
  committable,
  DEFAULT_POLICY,
  type Delivery,
  type DiffResult,
  type DigestMessage,
  diffSnapshot,
  type Finding,
  narrowedQueries,
  type RunSummary,
  renderDigests,
  type Silence,
  type SilenceSource,
  type SnapshotEntry,
  summarizeTransition,
  type TransitionRef,
  toldBy,
  toldQuietly,
} from "@fleet-auditor/audit";
import { type RuntimeSource, type ScanResult, scanAll } from "@fleet-auditor/keb";
import type { RunLogger } from "./ports.ts";
import type { AuditRunInput } from "./run-input.ts";

const DEFAULT_LEASE_MS = 15 * 60_000;
const DEFAULT_LEDGER_RETENTION_DAYS = 30;

/** Everything a run needs; the composition root (function, CLI) builds it once. */
export interface AuditRunDeps {
  source: RuntimeSource;
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
  /** Ledger items are kept this long. Default 30 days. */
  ledgerRetentionDays?: number;
  /** Messages per run before the rest becomes "+N more". Default 10. */
  maxMessagesPerRun?: number;
  /** Where to read the ledger, named in "+N more" lines. */
  ledgerHint?: string;
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
 *    snapshot and silences load; scan once more if the inventory moved under the paging.
 * 4. Plan (pure): diff the findings against the snapshot and render the digests.
 * 5. A dry run returns here, with the digests as a preview.
 * 6. Publish the digests (a baseline publishes none and counts all as told).
 * 7. Commit the snapshot writes whose transitions were told, fenced by the lease.
 * 8. Summarize, and record the run in the ledger unless a publish failed, so that a retry of
 *    the same scheduled time sends what failed.
 *
 * The lease is released however the run ends.
 */
export async function runAudit(deps: AuditRunDeps, input: AuditRunInput): Promise<AuditRunResult> {
  const run = startRun(deps, input);
  if (run.scheduled) {
    const recorded = await recordedRun(deps, run);
    if (recorded) return recorded;
  }
  if (!run.dryRun && !(await takeLease(deps, run))) return skipped(run);
  try {
    const [scan, state] = await Promise.all([scanWithRescan(deps, run), loadState(deps, run)]);
    const plan = planNotifications(deps, run, scan, state);
    if (run.dryRun) {
      const preview = plan.digests.map(({ subject, message, attributes }) => ({
        subject,
        message,
        attributes,
      }));
      return { ...summarize(run, scan, plan, NOTHING_TOLD, NO_WRITES), preview };
    }
    const delivery = input.notify === false ? toldQuietly(plan.diff) : await publish(deps, plan);
    const writes = await commit(deps, run, plan.diff, delivery);
    const summary = summarize(run, scan, plan, delivery, writes);
    if (delivery.failed === 0) await record(deps, run, summary);
    return summary;
  } finally {
    if (!run.dryRun) await deps.store.releaseLease(run.audit.name, run.id);
  }
}

/** Ledger items are capped at 400 KB: keep the first transitions and count the rest. */
export const LEDGER_TRANSITIONS = 500;

/** What every stage of one run knows about it. */
interface Run {
  audit: AuditDefinition;
  input: AuditRunInput;
  id: string;
  dryRun: boolean;
  clock: () => Date;
  startedAt: Date;
  /** The time the audit engine judges by (`input.now`, or when the run started). */
  now: Date;
  scheduledTime: string | null;
  /** True for a scheduled run that writes: its scheduled time keys idempotency. */
  scheduled: boolean;
  /** The ledger key: `sched:<scheduled time>` or `adhoc:<start>:<run id>`. */
  runKey: string;
  leaseMs: number;
}

/** What the scan stage found. */
interface Scan {
  scans: ScanResult[];
  findings: Finding[];
  rescans: number;
  complete: boolean;
  incompleteReason: string | null;
}

/** What the audit remembered and what keeps it quiet. */
interface State {
  previous: Map<string, SnapshotEntry>;
  silences: Silence[];
}

/** The diff and the messages that tell it. */
interface Plan {
  diff: DiffResult;
  digests: DigestMessage[];
}

const NOTHING_TOLD: Delivery = { told: new Set(), messages: 0, failed: 0 };
const NO_WRITES: CommitResult = { written: 0, deleted: 0 };

function startRun(deps: AuditRunDeps, input: AuditRunInput): Run {
  const audit = auditNamed(input.audit, deps.audits ?? AUDITS);
  const clock = deps.clock ?? (() => new Date());
  const startedAt = clock();
  const id = (deps.newId ?? (() => crypto.randomUUID()))();
  const dryRun = input.dryRun ?? false;
  const scheduledTime = input.scheduledTime ? new Date(input.scheduledTime).toISOString() : null;
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
  };
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

function skipped(run: Run): AuditRunResult {
  return {
    ...emptySummary(run),
    status: "skipped",
    incompleteReason: "another run of this audit was in progress",
    durationMs: elapsed(run),
  };
}

/**
 * Stage 3: every page of the audit's queries, classified as pages arrive. When the inventory
 * moved under the paging (a runtime created or deleted meanwhile) while every request succeeded,
 * one fresh scan usually completes. A failed request is not retried here.
 */
async function scanWithRescan(deps: AuditRunDeps, run: Run): Promise<Scan> {
  let pass = await scanOnce(deps, run);
  let rescans = 0;
  if (pass.scans.some((s) => !s.complete && s.error === null)) {
    deps.log?.info("inventory moved during the scan; scanning once more", {
      reasons: pass.scans.filter((s) => !s.complete).map((s) => s.incompleteReason),
    });
    rescans = 1;
    pass = await scanOnce(deps, run);
  }
  const broken = pass.scans.find((s) => !s.complete);
  const incompleteReason = broken ? `${broken.query}: ${broken.incompleteReason}` : null;
  if (broken) deps.log?.warn("scan incomplete: nothing will be resolved", { reason: incompleteReason });
  return { ...pass, rescans, complete: !broken, incompleteReason };
}

async function scanOnce(deps: AuditRunDeps, run: Run): Promise<{ scans: ScanResult[]; findings: Finding[] }> {
  const findings = new Map<string, Finding>();
  const scans = await scanAll(deps.source, narrowedQueries(run.audit, run.input.filters), {
    concurrency: deps.concurrency ?? 4,
    retain: false,
    onProgress: deps.onProgress,
    onPage: (runtimes) => {
      for (const runtime of runtimes) {
        const finding = run.audit.classify(runtime);
        if (finding) findings.set(finding.instanceID, finding);
      }
    },
  });
  return { scans, findings: [...findings.values()] };
}

/** Read alongside the scan: the audit's snapshot and the silences in force. */
async function loadState(deps: AuditRunDeps, run: Run): Promise<State> {
  const [previous, silences] = await Promise.all([
    deps.store.loadSnapshot(run.audit.name),
    deps.silences?.active(run.now) ?? Promise.resolve([]),
  ]);
  return { previous, silences };
}

/** Stage 4 (pure): the transitions and snapshot writes, and the digests that tell them. */
function planNotifications(deps: AuditRunDeps, run: Run, scan: Scan, state: State): Plan {
  const diff = diffSnapshot({
    audit: run.audit.name,
    previous: state.previous,
    findings: scan.findings,
    complete: scan.complete,
    now: run.now,
    policy: deps.policy ?? DEFAULT_POLICY,
    silences: state.silences,
  });
  const digests = renderDigests(
    {
      audit: run.audit.name,
      runId: run.id,
      at: run.now.toISOString(),
      complete: scan.complete,
      incompleteReason: scan.incompleteReason,
      listed: scan.scans.reduce((n, s) => n + s.listed, 0),
      flagged: scan.findings.length,
      ledgerHint: deps.ledgerHint,
    },
    diff.transitions,
    deps.maxMessagesPerRun,
  );
  return { diff, digests };
}

/** Stage 6: each digest once; a refused one is logged and its transitions stay untold. */
async function publish(deps: AuditRunDeps, plan: Plan): Promise<Delivery> {
  const told = new Set<TransitionRef>();
  let messages = 0;
  let failed = 0;
  for (const digest of plan.digests) {
    try {
      await deps.publisher.publish(digest);
      messages++;
      for (const ref of toldBy(digest)) told.add(ref);
    } catch (err) {
      failed += toldBy(digest).length;
      deps.log?.warn("publish failed; these transitions will be sent again next run", {
        error: (err as Error).message,
        transitions: digest.transitions.length,
      });
    }
  }
  return { told, messages, failed };
}

/** Stage 7: the writes whose transitions were told; throws `LeaseLostError` if the lease was lost. */
function commit(deps: AuditRunDeps, run: Run, diff: DiffResult, delivery: Delivery): Promise<CommitResult> {
  return deps.store.commit(run.audit.name, committable(diff, delivery.told), {
    owner: run.id,
    until: new Date(run.clock().getTime() + run.leaseMs),
  });
}

/** Stage 8: the run summary every caller gets. */
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
    queries: scan.scans.map((s) => ({
      query: s.query,
      pages: s.pages,
      totalCount: s.totalCount,
      listed: s.listed,
    })),
    flagged: scan.findings.length,
    transitions: transitions.map(summarizeTransition),
    ...(scan.rescans ? { rescans: scan.rescans } : {}),
    notified: {
      messages: delivery.messages,
      transitions: delivery.quiet ? 0 : delivery.told.size,
      failed: delivery.failed,
      suppressed: transitions.filter((t) => t.silencedBy).length,
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

/** Stage 8: the run's ledger record (a retry of its scheduled time then returns `duplicate`). */
async function record(deps: AuditRunDeps, run: Run, summary: RunSummary): Promise<void> {
  const retentionS = (deps.ledgerRetentionDays ?? DEFAULT_LEDGER_RETENTION_DAYS) * 86_400;
  await deps.store.recordRun({
    audit: run.audit.name,
    runKey: run.runKey,
    summary: forLedger(summary),
    expiresAt: Math.floor(run.startedAt.getTime() / 1000) + retentionS,
  });
}

function forLedger(summary: RunSummary): RunSummary {
  if (summary.transitions.length <= LEDGER_TRANSITIONS) return summary;
  return {
    ...summary,
    transitions: summary.transitions.slice(0, LEDGER_TRANSITIONS),
    transitionsOmitted: summary.transitions.length - LEDGER_TRANSITIONS,
  };
}
