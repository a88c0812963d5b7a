import type { Finding } from "@fleet-auditor/audit";
import { redact } from "@fleet-auditor/http";
import {
  type ApplicationStatusStore,
  DEFAULT_EDGE_THRESHOLDS,
  type EdgeThresholds,
  quarantinedByCode,
  refusingNodes,
  stuckApplications,
} from "@fleet-auditor/metaserver";
import {
  type AuditSource,
  beforeDeadline,
  type Run,
  RunDeadlineError,
  type RunLogger,
  type Scan,
} from "@fleet-auditor/use-cases";
import { quarantinedFinding, refusedFinding, stuckFinding } from "./edge-finding.ts";

/** Quarantined codes read per run, newest first: the window's count is a lower bound past it. */
const QUARANTINE_READ = 1_000;

/** What reading the status table needs. */
export interface StatusTableSourceOptions {
  statusStore: ApplicationStatusStore;
  thresholds?: EdgeThresholds;
  log?: RunLogger;
}

/** The applications audit's source: the status table's watched rows, never a scan. */
export class StatusTableSource implements AuditSource {
  readonly filterable = false;
  readonly listedWhat = "status rows";
  readonly #o: StatusTableSourceOptions;
  constructor(options: StatusTableSourceOptions) {
    this.#o = options;
  }

  read(run: Run): Promise<Scan> {
    return readStatusTable(this.#o, run.now, run.signal);
  }
}

/**
 * Stage 3 of the applications audit: the watched rows of the status table, never a scan. Open
 * rows older than the stuck threshold, refused rows in the window, and the window's quarantined
 * bodies. A read that fails (a shard throttled, the table missing) makes the run incomplete:
 * it finds nothing and so resolves nothing.
 */
async function readStatusTable(
  edge: StatusTableSourceOptions,
  now: Date,
  signal?: AbortSignal,
): Promise<Scan> {
  const t = edge.thresholds ?? DEFAULT_EDGE_THRESHOLDS;
  const before = new Date(now.getTime() - t.stuckAfterMinutes * 60_000);
  const since = new Date(now.getTime() - t.rejectedWindowMinutes * 60_000);
  const store = edge.statusStore;
  try {
    const [open, refused, quarantined] = await beforeDeadline(
      Promise.all([
        store.watched({ set: "open", before }, now),
        store.watched({ set: "refused", since }, now),
        store.quarantinedCodes(since, QUARANTINE_READ),
      ]),
      signal,
      "reading the status table",
    );
    const codes = quarantinedByCode(quarantined, now, t);
    const findings: Finding[] = [
      ...stuckApplications(open, now, t).map(stuckFinding),
      ...refusingNodes(refused, now, t).map(refusedFinding),
      ...codes.map((q) => quarantinedFinding(q.code, q.count)),
    ];
    const windowed = codes.reduce((n, q) => n + q.count, 0);
    return {
      queries: [
        {
          query: `open before ${before.toISOString()}`,
          pages: 0,
          totalCount: open.length,
          listed: open.length,
        },
        {
          query: `refused since ${since.toISOString()}`,
          pages: 0,
          totalCount: refused.length,
          listed: refused.length,
        },
        {
          query: `quarantined since ${since.toISOString()}`,
          pages: 0,
          totalCount: windowed,
          listed: windowed,
        },
      ],
      listed: open.length + refused.length + windowed,
      findings,
      leftOut: [],
      rescans: 0,
      complete: true,
      incompleteReason: null,
      incompleteCode: null,
    };
  } catch (err) {
    const reason = redact(`reading the status table failed: ${(err as Error).message ?? String(err)}`).slice(
      0,
      600,
    );
    edge.log?.warn("status table read incomplete: nothing will be resolved", { reason });
    return {
      queries: [],
      listed: 0,
      findings: [],
      leftOut: [],
      rescans: 0,
      complete: false,
      incompleteReason: reason,
      incompleteCode: err instanceof RunDeadlineError ? "RUN_DEADLINE" : "STATUS_READ",
    };
  }
}
