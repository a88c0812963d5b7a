// How a run ends: the snapshot writes it may commit, the audit's health, its summary and its
// ledger record. Stages 9 to 11 of `runAudit`.

import {
  type AuditHealth,
  type CommitResult,
  committable,
  type Delivery,
  type DiffResult,
  LEFT_OUT_LISTED,
  nextHealth,
  type RunSummary,
  summarizeTransition,
} from "@fleet-auditor/audit";
import { healthNotice } from "@fleet-auditor/render";
import type { ResolvedDeps } from "./run-deps.ts";
import { historyOf, type KnownHistory } from "./run-history.ts";
import type { AuditRunResult, Run, Scan } from "./run-state.ts";

/** Ledger items are capped at 400 KB: keep the first transitions and count the rest. */
export const LEDGER_TRANSITIONS = 500;
const LEDGER_TRANSITION_BYTES = 200_000;

/**
 * Stage 9: the writes whose transitions were told, and the incidents' history they tell (folded
 * into `history`, the records read while the messages went out); throws `LeaseLostError` if the
 * lease was lost.
 */
export async function commit(
  deps: ResolvedDeps,
  run: Run,
  diff: DiffResult,
  delivery: Delivery,
  history: Promise<KnownHistory | undefined>,
): Promise<CommitResult> {
  return deps.ports.store.commit(
    run.audit.name,
    committable(diff, delivery),
    fence(run),
    run.audit.presenter.problemKey,
    historyOf(deps, run, diff, delivery, await history),
  );
}

/** The lease this run must still hold for a write that depends on it, extended from now. */
export function fence(run: Run): { owner: string; until: Date } {
  return { owner: run.id, until: new Date(run.clock().getTime() + run.leaseMs) };
}

/**
 * Stage 10: the audit's health after this run, written only when it changed, and the notice it
 * owes. A notice that could not be published is owed again next run.
 */
export async function updateHealth(
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
            links: deps.settings.links,
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
export function summarize(
  run: Run,
  scan: Scan,
  diff: DiffResult,
  delivery: Delivery,
  writes: CommitResult,
): AuditRunResult {
  const { transitions } = diff;
  const inhibited = transitions.filter((t) => t.inhibitedBy).length;
  const acknowledged = transitions.filter((t) => t.acknowledgedBy).length;
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
      failed: delivery.refused.size,
      suppressed: transitions.filter((t) => t.silencedBy).length,
      ...(inhibited ? { inhibited } : {}),
      ...(acknowledged ? { acknowledged } : {}),
      ...(delivery.error ? { error: delivery.error } : {}),
      ...(delivery.shortened ? { shortened: delivery.shortened } : {}),
    },
    writes: { snapshot: writes.written, deleted: writes.deleted },
    durationMs: elapsed(run),
  };
}

export function emptySummary(run: Run): RunSummary {
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

export const elapsed = (run: Run): number => run.clock().getTime() - run.startedAt.getTime();

/**
 * Stage 11: the run's ledger record (a retry of its scheduled time then returns `duplicate`),
 * with the lease's release in the same request where the store can (`finishRun`): true when the
 * lease was given back here, false when the caller still has to.
 */
export async function record(deps: ResolvedDeps, run: Run, summary: RunSummary): Promise<boolean> {
  const { store } = deps.ports;
  const ledger = {
    audit: run.audit.name,
    runKey: run.runKey,
    summary: forLedger(summary),
    expiresAt: expiresAt(deps, run),
  };
  if (!store.finishRun) {
    await store.recordRun(ledger);
    return false;
  }
  await store.finishRun(ledger, run.id);
  return true;
}

/** When the run's ledger item and report expire (DynamoDB TTL, epoch seconds). */
export function expiresAt(deps: ResolvedDeps, run: Run): number {
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

/** A run that told nothing (a dry run, the report's own summary). */
export const NOTHING_TOLD: Delivery = { told: new Set(), messages: 0, refused: new Set() };
/** A run that wrote nothing. */
export const NO_WRITES: CommitResult = { written: 0, deleted: 0 };
