import {
  type AlertPublisher,
  type AuditHealth,
  type AuditStateStore,
  type CommitFence,
  type CommitResult,
  type DigestMessage,
  type EndedEpisode,
  HEALTHY,
  type HistoryCommit,
  type IncidentEvent,
  type IncidentRecord,
  type PublishOutcome,
  type RunRecord,
  type RunReport,
  type RunReportStore,
  type Silence,
  type SilenceSource,
  type SnapshotChange,
  type SnapshotEntry,
} from "@fleet-auditor/audit";
import {
  KebHttpError,
  type ListParameters,
  pageQuery,
  parseRuntimesPage,
  type RuntimeSource,
  type RuntimesPage,
} from "@fleet-auditor/keb";
import { answerText, type Fleet, RuntimesHandler } from "@fleet-auditor/keb-kubeedge-sim";
import { LeaseLostError } from "@fleet-auditor/store";

/**
 * In-memory implementations of the run's ports, for tests of `runAudit`'s logic that need no
 * server. Each keeps the contract of its real adapter (the DynamoDB store's lease and fence
 * rules, KEB's query semantics through the simulator's own handler), so a test that passes here
 * tests the logic, not a friendlier fake.
 */

/** KEB's `/runtimes` in process: the simulator's handler over a fleet, parsed as the client parses. */
export class FleetSource implements RuntimeSource {
  readonly fleet: Fleet;
  readonly #handler: RuntimesHandler;
  /** Pages asked for, in order. */
  readonly requests: ListParameters[] = [];
  /** Runs before each page is answered: may change the fleet or throw (a failed request). */
  beforePage?: (params: ListParameters) => void;

  constructor(fleet: Fleet) {
    this.fleet = fleet;
    this.#handler = new RuntimesHandler(fleet);
  }

  async listPage(params: ListParameters): Promise<RuntimesPage> {
    this.requests.push(params);
    this.beforePage?.(params);
    const query = pageQuery(params);
    const answer = this.#handler.handle(new URLSearchParams(query));
    if (answer.status !== 200) {
      throw new KebHttpError({
        status: answer.status,
        bodyExcerpt: answer.body.error,
        url: `memory:?${query}`,
      });
    }
    return parseRuntimesPage(JSON.parse(answerText(answer)), params.page ?? 1);
  }
}

/** The audit table's rules in a Map: lease with expiry, commits fenced by the lease, ledger written once. */
export class MemoryAuditStore implements AuditStateStore {
  readonly snapshots = new Map<string, Map<string, SnapshotEntry>>();
  readonly ledger = new Map<string, RunRecord>();
  readonly leases = new Map<string, { owner: string; expiresAtMs: number }>();
  readonly health = new Map<string, AuditHealth>();
  /** Snapshot items put and deleted, over all commits. */
  readonly itemWrites = { put: 0, deleted: 0 };
  /** Incident records by audit and key, and every event committed, in order. */
  readonly incidents = new Map<string, IncidentRecord>();
  readonly incidentEvents: IncidentEvent[] = [];

  async loadSnapshot(audit: string): Promise<Map<string, SnapshotEntry>> {
    return structuredClone(this.snapshots.get(audit) ?? new Map());
  }

  async commit(
    audit: string,
    changes: readonly SnapshotChange[],
    fence: CommitFence,
    _problemKey?: unknown,
    history?: HistoryCommit,
  ): Promise<CommitResult> {
    const result: CommitResult = { written: 0, deleted: 0 };
    if (changes.length === 0 && !history) return result;
    const lease = this.leases.get(audit);
    if (lease?.owner !== fence.owner) throw new LeaseLostError(audit, fence.owner);
    lease.expiresAtMs = fence.until.getTime();
    const snapshot = this.snapshots.get(audit) ?? new Map<string, SnapshotEntry>();
    this.snapshots.set(audit, snapshot);
    for (const c of changes) {
      if (c.op === "put") {
        snapshot.set(c.entry.key, structuredClone(c.entry));
        result.written++;
      } else {
        snapshot.delete(c.key);
        result.deleted++;
      }
    }
    this.itemWrites.put += result.written;
    this.itemWrites.deleted += result.deleted;
    for (const { record, event } of history?.writes ?? []) {
      this.incidents.set(`${audit}|${record.key}`, structuredClone(record));
      this.incidentEvents.push(structuredClone(event));
    }
    if (history?.episodes) this.episodes.set(audit, structuredClone([...history.episodes]));
    return result;
  }

  readonly episodes = new Map<string, EndedEpisode[]>();

  async loadEpisodes(audit: string): Promise<EndedEpisode[]> {
    return structuredClone(this.episodes.get(audit) ?? []);
  }

  async loadIncidents(audit: string, keys: readonly string[]): Promise<Map<string, IncidentRecord>> {
    const out = new Map<string, IncidentRecord>();
    for (const key of keys) {
      const record = this.incidents.get(`${audit}|${key}`);
      if (record) out.set(key, structuredClone(record));
    }
    return out;
  }

  async findRun(audit: string, runKey: string): Promise<RunRecord | undefined> {
    return structuredClone(this.ledger.get(`${audit}|${runKey}`));
  }

  async recordRun(record: RunRecord): Promise<boolean> {
    const key = `${record.audit}|${record.runKey}`;
    if (this.ledger.has(key)) return false;
    this.ledger.set(key, structuredClone(record));
    return true;
  }

  async acquireLease(audit: string, owner: string, now: Date, until: Date): Promise<boolean> {
    const held = this.leases.get(audit);
    if (held && held.expiresAtMs >= now.getTime() && held.owner !== owner) return false;
    this.leases.set(audit, { owner, expiresAtMs: until.getTime() });
    return true;
  }

  async releaseLease(audit: string, owner: string): Promise<void> {
    if (this.leases.get(audit)?.owner === owner) this.leases.delete(audit);
  }

  async describeLease(audit: string): Promise<{ owner: string; expiresAtMs: number } | undefined> {
    const lease = this.leases.get(audit);
    return lease ? { ...lease } : undefined;
  }

  async releaseShownLease(audit: string, shown: { owner: string; expiresAtMs: number }): Promise<boolean> {
    const lease = this.leases.get(audit);
    if (lease?.owner !== shown.owner || lease.expiresAtMs !== shown.expiresAtMs) return false;
    this.leases.delete(audit);
    return true;
  }

  readonly publishing = new Map<string, string>();

  async beginPublishing(audit: string, fence: CommitFence): Promise<void> {
    if (this.leases.get(audit)?.owner !== fence.owner) throw new LeaseLostError(audit, fence.owner);
    this.leases.set(audit, { owner: fence.owner, expiresAtMs: fence.until.getTime() });
    this.publishing.set(audit, fence.owner);
  }

  async unfinishedPublishing(audit: string): Promise<string | undefined> {
    return this.publishing.get(audit);
  }

  async endPublishing(audit: string): Promise<void> {
    this.publishing.delete(audit);
  }

  async loadHealth(audit: string): Promise<AuditHealth> {
    return structuredClone(this.health.get(audit) ?? HEALTHY);
  }

  async saveHealth(audit: string, health: AuditHealth): Promise<void> {
    this.health.set(audit, structuredClone(health));
  }

  async recentRuns(audit: string, limit: number): Promise<RunRecord[]> {
    return [...this.ledger.values()]
      .filter((r) => r.audit === audit)
      .sort((a, b) => (a.runKey < b.runKey ? 1 : -1))
      .slice(0, limit);
  }
}

/** Keeps what was published; `refuse` decides which publishes fail, as SNS refusing them would. */
export class MemoryPublisher implements AlertPublisher {
  readonly published: DigestMessage[] = [];
  refuse: (message: DigestMessage, attempt: number) => boolean = () => false;
  #attempts = 0;

  async publish(message: DigestMessage): Promise<{ messageId: string }> {
    if (this.refuse(message, this.#attempts++)) throw new Error("publish refused (injected)");
    this.published.push(message);
    return { messageId: `m-${this.published.length}` };
  }

  /** As SNS PublishBatch: each entry succeeds or fails on its own. */
  async publishBatch(messages: readonly DigestMessage[]): Promise<PublishOutcome[]> {
    this.batches.push(messages.length);
    const outcomes: PublishOutcome[] = [];
    for (const m of messages) {
      try {
        outcomes.push({ ok: true, ...(await this.publish(m)) });
      } catch (err) {
        outcomes.push({ ok: false, error: (err as Error).message });
      }
    }
    return outcomes;
  }

  /** The size of each batch published. */
  readonly batches: number[] = [];
}

/** Silences in force at a time, from a list. */
export class MemorySilences implements SilenceSource {
  readonly silences: Silence[];
  constructor(silences: Silence[] = []) {
    this.silences = silences;
  }
  async active(now: Date): Promise<Silence[]> {
    const t = now.getTime();
    return this.silences.filter((s) => Date.parse(s.startsAt) <= t && Date.parse(s.endsAt) > t);
  }
}

/** Run reports in a Map; `refuse` makes saving fail, as a throttled table would. */
export class MemoryReportStore implements RunReportStore {
  readonly reports = new Map<string, RunReport>();
  refuse = false;
  async saveReport(report: RunReport): Promise<void> {
    if (this.refuse) throw new Error("report write refused (injected)");
    this.reports.set(report.runId, structuredClone(report));
  }
  async loadReport(runId: string): Promise<RunReport | undefined> {
    return structuredClone(this.reports.get(runId));
  }
}
