import type {
  AuditDefinition,
  AuditHealth,
  DigestMessage,
  EndedEpisode,
  Finding,
  LeftOut,
  Route,
  RunSummary,
  Silence,
  SnapshotEntry,
  SnapshotFingerprint,
} from "@fleet-auditor/audit";
import type { SecretUnreadableError } from "./errors.ts";
import type { AuditRunInput } from "./run-input.ts";

// The values one audit run carries from stage to stage (`run-audit.ts`), and that its source
// (`audit-source.ts`) reads and returns.

/** What a caller gives one run beyond its input. */
export interface RunOptions {
  /**
   * The run's deadline (`runDeadline` from the Lambda context; the CLI's `--deadline`): reading
   * KEB, the lookups and the status table stop when it aborts, and the run ends incomplete,
   * counted toward `degraded`, instead of being killed by a timeout that writes nothing.
   */
  signal?: AbortSignal;
  /** When `signal` fires (epoch ms), if known: no KEB retry waits past it. */
  deadlineAt?: number;
}

/** What every stage of one run knows about it. */
export interface Run {
  audit: AuditDefinition;
  /** The audit's routes on this stage (`routesFor`): what its incidents and messages follow. */
  routes: readonly Route[];
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
  signal?: AbortSignal;
  deadlineAt?: number;
}

/** What the scan stage found. */
export interface Scan {
  /** What was read, as the summary lists it. */
  queries: RunSummary["queries"];
  /** How many runtimes (or status rows) were read. */
  listed: number;
  findings: Finding[];
  /**
   * Findings left out before the diff (`keepable`): ones that cannot be stored, and a second
   * finding under a key already taken. Counted in the summary, told once.
   */
  leftOut: LeftOut[];
  rescans: number;
  complete: boolean;
  incompleteReason: string | null;
  /**
   * The error code behind an incomplete scan: KEB's (`KEB_AUTH`, `KEB_HTTP`, …) or
   * `KEB_INCOMPLETE`; `STATUS_READ` when the status table could not be read.
   */
  incompleteCode: string | null;
  /**
   * The secret without a value that kept the source from reading (a stage deployed, its secret
   * not put yet; `SecretUnreadableError.notSet`): the run ends `not-configured` (`run-first-day.ts`).
   */
  unconfigured?: SecretUnreadableError;
}

/** What the audit remembered, what keeps it quiet, and how well it has seen lately. */
export interface State {
  previous: Map<string, SnapshotEntry>;
  /**
   * The snapshot's fingerprint showed that this run changes nothing (`unchangedSince`):
   * `previous` was never read (it is empty) and the diff is skipped.
   */
  unchanged?: true;
  silences: Silence[];
  health: AuditHealth;
  /** A run interrupted after publishing, whose message this run's digest may repeat. */
  repeats?: string;
  /** The audit's first scheduled run here, on a stage whose `firstRun` is `baseline` (`run-first-day.ts`). */
  baseline?: true;
  /** Its incidents that ended lately: what tells that one opening now is flapping. */
  episodes: EndedEpisode[];
}

/**
 * The state as stage 3 loads it, beside the source's read: the snapshot itself, or only its
 * fingerprint when the store keeps one (`knownState` decides after the read).
 */
export type LoadedState = Omit<State, "previous" | "unchanged" | "episodes"> &
  ({ previous: Map<string, SnapshotEntry>; episodes: EndedEpisode[] } | { fingerprint: SnapshotFingerprint });

/** A run summary; in a dry run it also carries the messages that would have been published. */
export type AuditRunResult = RunSummary & {
  preview?: Array<Pick<DigestMessage, "subject" | "message" | "attributes">>;
};
