import {
  type AlertPolicy,
  type AlertPublisher,
  AUDITS,
  type AuditDefinition,
  type AuditStateStore,
  auditNamed,
  committable,
  DEFAULT_POLICY,
  type DigestMessage,
  diffSnapshot,
  type Finding,
  narrowedQueries,
  type RunSummary,
  renderDigests,
  type SilenceSource,
} from "@fleet-auditor/audit";
import { type RuntimeSource, type ScanResult, scanAll } from "@fleet-auditor/keb";
import type { AuditRunInput } from "./run-input.ts";

const DEFAULT_LEASE_MS = 15 * 60_000;

/** The minimal logger a run writes to (Powertools Logger fits). */
export interface RunLogger {
  info(message: string, ...extra: Array<Record<string, unknown>>): void;
  warn(message: string, ...extra: Array<Record<string, unknown>>): void;
}

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
 * One audit run: list every page of the audit's queries (reading the snapshot meanwhile),
 * classify, diff, publish the digests, then commit only the snapshot writes whose notification
 * went out, and record the run. A scheduled time already recorded returns its summary as
 * `duplicate`; a run overlapping another of the same audit returns `skipped`. Both publish nothing.
 */
export async function runAudit(deps: AuditRunDeps, input: AuditRunInput): Promise<AuditRunResult> {
  const audit = auditNamed(input.audit, deps.audits ?? AUDITS);
  const clock = deps.clock ?? (() => new Date());
  const startedAt = clock();
  const now = input.now ? new Date(input.now) : startedAt;
  const runId = (deps.newId ?? (() => crypto.randomUUID()))();
  const dryRun = input.dryRun ?? false;
  const scheduledTime = input.scheduledTime ? new Date(input.scheduledTime).toISOString() : null;
  const runKey = scheduledTime ? `sched:${scheduledTime}` : `adhoc:${startedAt.toISOString()}:${runId}`;
  const log = deps.log;
  const summary: AuditRunResult = {
    audit: audit.name,
    runId,
    scheduledTime,
    dryRun,
    status: "completed",
    complete: false,
    incompleteReason: null,
    queries: [],
    flagged: 0,
    transitions: [],
    notified: { messages: 0, transitions: 0, failed: 0, suppressed: 0 },
    writes: { snapshot: 0, deleted: 0 },
    startedAt: startedAt.toISOString(),
    durationMs: 0,
  };
  const finish = (): AuditRunResult => ({ ...summary, durationMs: clock().getTime() - startedAt.getTime() });

  if (!dryRun && scheduledTime) {
    const done = await deps.store.findRun(audit.name, runKey);
    if (done) {
      log?.info("scheduled time already audited; nothing to do", {
        runKey,
        previousRunId: done.summary.runId,
      });
      return { ...done.summary, status: "duplicate" };
    }
  }
  const leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
  const leaseUntil = new Date(startedAt.getTime() + leaseMs);
  if (!dryRun && !(await deps.store.acquireLease(audit.name, runId, startedAt, leaseUntil))) {
    log?.warn("another run of this audit holds the lease; standing back", { audit: audit.name });
    summary.status = "skipped";
    summary.incompleteReason = "another run of this audit was in progress";
    return finish();
  }
  try {
    let findings = new Map<string, Finding>();
    const scan = (): Promise<ScanResult[]> => {
      findings = new Map();
      return scanAll(deps.source, narrowedQueries(audit, input.filters), {
        concurrency: deps.concurrency ?? 4,
        retain: false,
        onProgress: deps.onProgress,
        onPage: (runtimes) => {
          for (const runtime of runtimes) {
            const finding = audit.classify(runtime);
            if (finding) findings.set(finding.instanceID, finding);
          }
        },
      });
    };
    let [scans, previous, silences] = await Promise.all([
      scan(),
      deps.store.loadSnapshot(audit.name),
      deps.silences?.active(now) ?? Promise.resolve([]),
    ]);
    // The inventory moved under the paging (a runtime created or deleted meanwhile) while every
    // request succeeded: one fresh scan usually completes. A failed request is not retried here.
    if (scans.some((s) => !s.complete && s.error === null)) {
      log?.info("inventory moved during the scan; scanning once more", {
        reasons: scans.filter((s) => !s.complete).map((s) => s.incompleteReason),
      });
      summary.rescans = 1;
      scans = await scan();
    }
    summary.queries = scans.map((s) => ({
      query: s.query,
      pages: s.pages,
      totalCount: s.totalCount,
      listed: s.listed,
    }));
    const broken = scans.find((s) => !s.complete);
    summary.complete = !broken;
    summary.incompleteReason = broken ? `${broken.query}: ${broken.incompleteReason}` : null;
    summary.flagged = findings.size;
    if (broken) log?.warn("scan incomplete: nothing will be resolved", { reason: summary.incompleteReason });

    const diff = diffSnapshot({
      audit: audit.name,
      previous,
      findings: [...findings.values()],
      complete: summary.complete,
      now,
      policy: deps.policy ?? DEFAULT_POLICY,
      silences,
    });
    summary.transitions = diff.transitions.map((t) => ({
      kind: t.kind,
      instanceID: t.instanceID,
      state: t.state,
      previousState: t.previousState,
      severity: t.severity,
      ...(t.silencedBy ? { silencedBy: t.silencedBy } : {}),
    }));
    summary.notified.suppressed = diff.transitions.filter((t) => t.silencedBy).length;
    const digests = renderDigests(
      {
        audit: audit.name,
        runId,
        at: now.toISOString(),
        complete: summary.complete,
        incompleteReason: summary.incompleteReason,
        listed: summary.queries.reduce((n, q) => n + q.listed, 0),
        flagged: summary.flagged,
        ledgerHint: deps.ledgerHint,
      },
      diff.transitions,
      deps.maxMessagesPerRun,
    );
    if (dryRun) {
      summary.preview = digests.map(({ subject, message, attributes }) => ({ subject, message, attributes }));
      return finish();
    }

    const published = new Set<number>();
    if (input.notify === false) {
      // A baseline run: remember everything as notified without telling anyone.
      for (let i = 0; i < diff.transitions.length; i++) published.add(i);
    } else {
      for (const digest of digests) {
        try {
          await deps.publisher.publish(digest);
          summary.notified.messages++;
          // "+N more" is how the overflow is told: it counts as notified, or it would recur every run.
          for (const i of [...digest.transitions, ...digest.omitted]) published.add(i);
        } catch (err) {
          summary.notified.failed += digest.transitions.length + digest.omitted.length;
          log?.warn("publish failed; these transitions will be sent again next run", {
            error: (err as Error).message,
            transitions: digest.transitions.length,
          });
        }
      }
      summary.notified.transitions = published.size;
    }
    const commit = await deps.store.commit(audit.name, committable(diff, published), {
      owner: runId,
      until: new Date(clock().getTime() + leaseMs),
    });
    summary.writes = { snapshot: commit.written, deleted: commit.deleted };
    const result = finish();
    // A run whose publishes failed is not recorded, so a retry of its scheduled time sends them.
    if (summary.notified.failed === 0) {
      const retention = (deps.ledgerRetentionDays ?? 30) * 86_400;
      await deps.store.recordRun({
        audit: audit.name,
        runKey,
        summary: forLedger(result),
        expiresAt: Math.floor(startedAt.getTime() / 1000) + retention,
      });
    }
    return result;
  } finally {
    if (!dryRun) await deps.store.releaseLease(audit.name, runId);
  }
}

/** Ledger items are capped at 400 KB: keep the first transitions and count the rest. */
export const LEDGER_TRANSITIONS = 500;

function forLedger(summary: AuditRunResult): RunSummary {
  const { preview: _preview, ...plain } = summary;
  if (plain.transitions.length <= LEDGER_TRANSITIONS) return plain;
  return {
    ...plain,
    transitions: plain.transitions.slice(0, LEDGER_TRANSITIONS),
    transitionsOmitted: plain.transitions.length - LEDGER_TRANSITIONS,
  };
}
