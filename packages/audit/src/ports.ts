import type { Finding } from "./finding.ts";
import type { AuditHealth } from "./health.ts";
import type { IncidentWrite } from "./incident-history.ts";
import type { EndedEpisode, IncidentRecord } from "./incident-record.ts";
import type { DigestMessage } from "./message.ts";
import type { RunReport } from "./report.ts";
import type { Silence } from "./silence.ts";
import type { SnapshotChange, SnapshotEntry } from "./snapshot.ts";
import type { SnapshotFingerprint } from "./snapshot-fingerprint.ts";
import type { RunSummary } from "./summary.ts";

/** What committing a run's snapshot changes did. */
export interface CommitResult {
  written: number;
  deleted: number;
}

/** The incident history a commit writes with the snapshot changes it describes (`incidentWrites`). */
export interface HistoryCommit {
  writes: readonly IncidentWrite[];
  /** Epoch seconds after which its items may be deleted (DynamoDB TTL). */
  expiresAt: number;
  /** The audit's ended episodes after these writes (`endedEpisodes`), when they changed. */
  episodes?: readonly EndedEpisode[];
  /** Incidents paged again after PagerDuty resolved their page: their `pagerResolvedAt` is cleared. */
  repaged?: readonly string[];
}

/** The lease a commit is fenced by: it goes through only while `owner` still holds it. */
export interface CommitFence {
  owner: string;
  /** The lease is extended to this time for the commit. */
  until: Date;
}

/**
 * An audit's lease as an operator is shown it: who holds it and until when. Releasing it later
 * names this very lease, so a lease that changed meanwhile (taken over, or extended by a run that
 * is alive) is never removed by an answer given about another.
 */
interface HeldLease {
  owner: string;
  /** Epoch milliseconds, as stored: compared exactly when the lease is released. */
  expiresAtMs: number;
}

/** A finished run, kept in the run ledger until its TTL. */
export interface RunRecord {
  audit: string;
  /** `sched:<scheduled time>` for scheduled runs (the idempotency key), `adhoc:<time>:<runId>` otherwise. */
  runKey: string;
  summary: RunSummary;
  /** Epoch seconds after which the ledger item may be deleted (DynamoDB TTL). */
  expiresAt: number;
}

/** Audit state: snapshots, the run ledger and a lease per audit. */
export interface AuditStateStore {
  /** The audit's snapshot, one entry per flagged runtime. */
  loadSnapshot(audit: string): Promise<Map<string, SnapshotEntry>>;
  /**
   * The fingerprint of the audit's snapshot as last committed (`unchangedSince` reads it), or
   * undefined when none is known to describe it: then only `loadSnapshot` can tell. Optional: a
   * store without it is always read whole.
   */
  loadFingerprint?(audit: string): Promise<SnapshotFingerprint | undefined>;
  /**
   * Writes the changes after extending the audit's lease on the condition that `fence.owner`
   * still holds it; throws `LeaseLostError` (and writes nothing) when another run took it over.
   * `problemKey` (the audit presenter's) lets a store that keeps a fingerprint write it with them.
   * `history`, the incidents' records and events these changes tell, goes in the same batches:
   * as sure as the snapshot's own writes, no surer (not a transaction).
   */
  commit(
    audit: string,
    changes: readonly SnapshotChange[],
    fence: CommitFence,
    problemKey?: (f: Finding) => string,
    history?: HistoryCommit,
  ): Promise<CommitResult>;
  /** The records of the audit's incidents named, by key; those not kept are left out. */
  loadIncidents(audit: string, keys: readonly string[]): Promise<Map<string, IncidentRecord>>;
  /** The audit's incidents that ended lately, as the last commit kept them (`HistoryCommit.episodes`). */
  loadEpisodes(audit: string): Promise<EndedEpisode[]>;
  /** The ledger record of a run key, if that run completed. */
  findRun(audit: string, runKey: string): Promise<RunRecord | undefined>;
  /** Records a completed run; false when the key is already recorded. */
  recordRun(record: RunRecord): Promise<boolean>;
  /**
   * Records a completed run and gives `owner`'s lease back, as `recordRun` then `releaseLease`
   * would, in one request where the store can (both or neither: a run that ends between them
   * cannot leave its record unwritten with its lease released). The record is written whether or
   * not `owner` still holds the lease, and a lease another owner holds is left alone. False when
   * the key was already recorded. Optional: without it a run calls the two in that order.
   */
  finishRun?(record: RunRecord, owner: string): Promise<boolean>;
  /** Takes the audit's lease until `until` unless another owner holds an unexpired one. */
  acquireLease(audit: string, owner: string, now: Date, until: Date): Promise<boolean>;
  /** A run gives its own lease back; a lease another owner holds is left alone. */
  releaseLease(audit: string, owner: string): Promise<void>;
  /** Who holds the audit's lease and until when (expired or not); undefined when nobody does. */
  describeLease(audit: string): Promise<HeldLease | undefined>;
  /**
   * For an operator after a run was killed: removes the lease only if it is still exactly
   * `shown` (same owner, same expiry), in one conditional write. False, removing nothing, when
   * it changed or is gone: a run that took it over or extended it keeps the fence of its commit.
   */
  releaseShownLease(audit: string, shown: HeldLease): Promise<boolean>;
  /**
   * Right before a run publishes: proves `fence.owner` still holds the lease (extending it;
   * throws `LeaseLostError` and notes nothing otherwise, so a run that lost its lease publishes
   * nothing) and notes that it is publishing, until `endPublishing`.
   */
  beginPublishing(audit: string, fence: CommitFence): Promise<void>;
  /**
   * The run that began publishing and never finished (killed, lease lost or commit refused
   * after its publish): a later run's digest may repeat what it sent.
   */
  unfinishedPublishing(audit: string): Promise<string | undefined>;
  /** Clears the note once a run's commit is done: the snapshot now holds what was told. */
  endPublishing(audit: string): Promise<void>;
  /** The most recent ledger records, newest first. */
  recentRuns(audit: string, limit: number): Promise<RunRecord[]>;
  /** The audit's health (consecutive bad runs and whether a notice went out); healthy when unknown. */
  loadHealth(audit: string): Promise<AuditHealth>;
  saveHealth(audit: string, health: AuditHealth): Promise<void>;
}

/** Run reports: every transition of a run, by run ID, for as long as the ledger keeps runs. */
export interface RunReportStore {
  /** Stores the whole report, or throws; a report that was not completely written is not found. */
  saveReport(report: RunReport, expiresAt: number): Promise<void>;
  loadReport(runId: string): Promise<RunReport | undefined>;
}

/** Silences in force. */
export interface SilenceSource {
  active(now: Date): Promise<Silence[]>;
}

/**
 * A message was accepted. `shortened`: SNS refused it as too long and its `short` form was sent
 * instead, so it tells only what that form tells (`toldBy(message.short, …)`).
 */
export interface Published {
  messageId: string;
  shortened?: true;
}

/** What became of one message of a batch. */
export type PublishOutcome = ({ ok: true } & Published) | { ok: false; error: string };

/**
 * Publishes digest messages; `publish` throws when a message was not accepted. A publisher with a
 * size limit sends a message's `short` form when the message itself is refused as too long.
 */
export interface AlertPublisher {
  publish(message: DigestMessage): Promise<Published>;
  /**
   * Several messages at once (SNS PublishBatch), retrying entries that failed for a transient
   * reason: one outcome per message, in order, never a throw for one entry. Optional: without
   * it, messages go one by one.
   */
  publishBatch?(messages: readonly DigestMessage[]): Promise<PublishOutcome[]>;
}
