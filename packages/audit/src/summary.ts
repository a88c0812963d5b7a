import type { Transition } from "./snapshot.ts";

/** One KEB query of a run. */
interface QuerySummary {
  query: string;
  pages: number;
  totalCount: number;
  listed: number;
}

/**
 * A transition as the run summary reports it: without the finding; `silencedBy` only when
 * silenced, `inhibitedBy` only when inhibited. `instanceID` is the finding's key (the summary's contract kept the name it had when
 * every finding was a runtime).
 */
export type TransitionSummary = Pick<
  Transition,
  "kind" | "state" | "previousState" | "severity" | "silencedBy" | "inhibitedBy"
> & {
  instanceID: string;
};

/** The summary's view of a transition. */
export function summarizeTransition(t: Transition): TransitionSummary {
  const { kind, key, state, previousState, severity, silencedBy, inhibitedBy } = t;
  return {
    kind,
    instanceID: key,
    state,
    previousState,
    severity,
    ...(silencedBy ? { silencedBy } : {}),
    ...(inhibitedBy ? { inhibitedBy } : {}),
  };
}

/**
 * The result of one audit run. Consumers parse it: these fields keep their names and meaning.
 * `status` says whether the run did the work (`completed`), found it already done for this
 * scheduled time (`duplicate`), stood back for an overlapping run (`skipped`), or could not
 * start because a secret it needs has no value yet (`not-configured`: a stage deployed and not
 * configured; `incompleteReason` names the variable and the secret).
 */
export interface RunSummary {
  audit: string;
  runId: string;
  scheduledTime: string | null;
  dryRun: boolean;
  status: "completed" | "duplicate" | "skipped" | "not-configured";
  complete: boolean;
  incompleteReason: string | null;
  /** Why in a word, when incomplete: the KEB error code (`KEB_AUTH`, `KEB_HTTP`, `KEB_TIMEOUT`, …) or `KEB_INCOMPLETE`. */
  incompleteCode?: string;
  queries: QuerySummary[];
  flagged: number;
  transitions: TransitionSummary[];
  /**
   * The audit's first scheduled run on the stage recorded what is flagged as a baseline: all of it
   * counted as told, one short notice sent instead (`firstRun`). A run with `notify: false` is
   * the manual baseline, which sends nothing and is not marked.
   */
  baseline?: true;
  /** Present when the inventory moved during the first scan and the run scanned again. */
  rescans?: number;
  /** The run interrupted after publishing whose message this run's digest may repeat. */
  repeats?: string;
  /** In a ledger record: transitions beyond the first 500, counted, not listed (the report has them all). */
  transitionsOmitted?: number;
  /**
   * Findings the run left out before publishing (one that cannot be stored, e.g. a key over
   * DynamoDB's limit; a second finding under one key): the first 20, keys one-lined and cut
   * (`instanceID` is the key, as in `transitions`).
   */
  unstorable?: Array<{ instanceID: string; reason: string }>;
  /** How many findings were left out in all (present with `unstorable`). */
  unstorableCount?: number;
  /** Present when the run had transitions: whether its report (every transition) was stored. */
  report?: { stored: boolean };
  /** The audit's health after this run; `notice` when this run sent a degraded or recovered notice. */
  health?: { badRuns: number; badSince: string | null; notice?: "degraded" | "recovered" };
  /**
   * `suppressed`: transitions a silence held back. `inhibited`: transitions an inhibition rule held
   * back (present only then). `acknowledged`: reminders of acknowledged incidents held back
   * (present only then). `error`: why a refused message was refused (present only then).
   * `shortened`: messages SNS refused as too long whose short form (counts and the report
   * pointer) went out instead.
   */
  notified: {
    messages: number;
    transitions: number;
    failed: number;
    suppressed: number;
    inhibited?: number;
    acknowledged?: number;
    error?: string;
    shortened?: number;
  };
  /** Snapshot items written and deleted. */
  writes: { snapshot: number; deleted: number };
  startedAt: string;
  durationMs: number;
}
