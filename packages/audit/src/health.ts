// When an audit owes a notice about itself, and the health kept between runs. The notice's text is
// rendered by `healthNotice` of `@fleet-auditor/render`.

/** Whether an audit has been able to see the fleet lately; kept per audit between runs. */
export interface AuditHealth {
  /** Consecutive runs that were incomplete or failed. */
  badRuns: number;
  /** When the first of them ran (ISO); null while healthy. */
  badSince: string | null;
  /** Why the latest bad run could not see everything. */
  lastReason: string | null;
  /** A `degraded` notice went out for this episode (so one `recovered` is owed). */
  degradedNotified: boolean;
  /**
   * Digests of the left-out findings already told (`left-out.ts`), so that one is told once while
   * it persists. Kept here, the audit's one small item that every run reads.
   */
  leftOutTold?: string[];
  /**
   * Since when the audit's runs found a secret they need without a value (a stage deployed and
   * not configured yet), and which: its one notice went out, so the next runs stay quiet until a
   * run gets past it. Not a bad run: it counts toward no `degraded` notice.
   */
  notConfigured?: { since: string; reason: string };
}

export const HEALTHY: AuditHealth = { badRuns: 0, badSince: null, lastReason: null, degradedNotified: false };

/** Default number of consecutive bad runs before one `degraded` notice. */
const DEGRADED_AFTER_RUNS = 3;

/** What one run means for the audit's health, and the notice it owes, if any. */
export interface HealthStep {
  health: AuditHealth;
  /** True when `health` differs from before and must be written. */
  changed: boolean;
  notice?: "degraded" | "recovered";
}

/**
 * The next health after a run: a bad run (incomplete or failed) counts, and the
 * `degradedAfterRuns`-th in a row owes one `degraded` notice; the first good run after a notice
 * owes one `recovered`. A good run while healthy changes nothing (steady state writes nothing).
 */
export function nextHealth(
  previous: AuditHealth,
  run: { ok: boolean; at: string; reason: string | null },
  degradedAfterRuns = DEGRADED_AFTER_RUNS,
): HealthStep {
  const kept = {
    ...(previous.leftOutTold ? { leftOutTold: previous.leftOutTold } : {}),
    ...(previous.notConfigured ? { notConfigured: previous.notConfigured } : {}),
  };
  if (run.ok) {
    if (previous.badRuns === 0 && !previous.degradedNotified) return { health: previous, changed: false };
    return {
      health: { ...HEALTHY, ...kept },
      changed: true,
      ...(previous.degradedNotified ? { notice: "recovered" as const } : {}),
    };
  }
  const health: AuditHealth = {
    badRuns: previous.badRuns + 1,
    badSince: previous.badSince ?? run.at,
    lastReason: run.reason,
    degradedNotified: previous.degradedNotified,
    ...kept,
  };
  if (!health.degradedNotified && health.badRuns >= degradedAfterRuns)
    return { health, changed: true, notice: "degraded" };
  return { health, changed: true };
}
