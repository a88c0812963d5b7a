import { countOf, type Finding } from "@fleet-auditor/audit";
import { redact } from "@fleet-auditor/http";
import { displayedState, type RuntimeSource, type ScanResult, scanAll } from "@fleet-auditor/keb";
import {
  type AuditSource,
  type Confirmed,
  type Run,
  type RunLogger,
  type Scan,
  type State,
  secretNotSet,
  stoodBack,
} from "@fleet-auditor/use-cases";
import type { KebAuditDefinition } from "./keb-audit-definition.ts";
import { coveredBy, narrowedQueries } from "./keb-audits.ts";

/** What reading KEB needs beyond the run. */
export interface KebSourceOptions {
  client: RuntimeSource;
  audit: KebAuditDefinition;
  /** KEB requests in flight. Default 4. */
  concurrency?: number;
  log?: RunLogger;
  onProgress?: (done: number, total: number) => void;
}

/**
 * A KEB audit's source: every page of its queries (classified as pages arrive, scanned once more
 * when the inventory moved under the paging), and the absence lookup by instance ID.
 */
export class KebSource implements AuditSource {
  readonly filterable = true;
  readonly listedWhat = "runtimes";
  // Its pages stop when the run's signal aborts: they may begin beside the lease's take.
  readonly readsBeforeLease = true;
  readonly #o: KebSourceOptions;
  constructor(options: KebSourceOptions) {
    this.#o = options;
  }

  covers(run: Run, finding: Finding): boolean {
    return coveredBy(run.input.filters, finding);
  }

  read(run: Run): Promise<Scan> {
    return scanWithRescan(this.#o, run);
  }

  confirmAbsent(run: Run, scan: Scan, state: State): Promise<Confirmed> {
    return confirmAbsences(this.#o, run, scan, state);
  }
}

/**
 * Stage 3: every page of the audit's queries, classified as pages arrive. When the inventory
 * moved under the paging (a runtime created or deleted meanwhile) while every request succeeded,
 * one fresh scan usually completes. A failed request is not retried here.
 */
async function scanWithRescan(deps: KebSourceOptions, run: Run): Promise<Scan> {
  let pass = await scanOnce(deps, run);
  let rescans = 0;
  if (!run.signal?.aborted && pass.scans.some((s) => !s.complete && s.error === null)) {
    deps.log?.info("inventory moved during the scan; scanning once more", {
      reasons: pass.scans.filter((s) => !s.complete).map((s) => s.incompleteReason),
    });
    rescans = 1;
    pass = await scanOnce(deps, run);
  }
  const broken = pass.scans.find((s) => !s.complete);
  // Error texts are redacted where they are made; this is the last guard before the summary,
  // the ledger, logs and messages, and it keeps the reason short.
  const incompleteReason = broken
    ? redact(`${broken.query}: ${broken.incompleteReason}`).slice(0, 600)
    : null;
  const incompleteCode = broken ? (broken.error?.code ?? "KEB_INCOMPLETE") : null;
  const unconfigured = secretNotSet(broken?.error);
  // Not configured yet is the run's one warning (`runAudit`), not a scan that failed.
  if (broken && !unconfigured && !stoodBack(run.signal))
    deps.log?.warn("scan incomplete: nothing will be resolved", { reason: incompleteReason });
  return {
    ...(unconfigured ? { unconfigured } : {}),
    queries: pass.scans.map((s) => ({
      query: s.query,
      pages: s.pages,
      totalCount: s.totalCount,
      listed: s.listed,
    })),
    listed: pass.scans.reduce((n, s) => n + s.listed, 0),
    findings: pass.findings,
    leftOut: [],
    rescans,
    complete: !broken,
    incompleteReason,
    incompleteCode,
  };
}

/** One pass over the queries: their scans, and the findings by instance ID. */
async function scanOnce(
  deps: KebSourceOptions,
  run: Run,
): Promise<{ scans: ScanResult[]; findings: Finding[] }> {
  const { client, audit } = deps;
  const findings = new Map<string, Finding>();
  const scans = await scanAll(client, narrowedQueries(audit, run.input.filters), {
    concurrency: deps.concurrency ?? 4,
    retain: false,
    ...deadlineOf(run),
    onProgress: deps.onProgress,
    onPage: (runtimes) => {
      for (const runtime of runtimes) {
        const finding = audit.classify(runtime);
        if (finding) findings.set(finding.key, finding);
      }
    },
  });
  return { scans, findings: [...findings.values()] };
}

/** The run's deadline as the KEB scan takes it. */
function deadlineOf(run: Run): { signal?: AbortSignal; deadlineAt?: number } {
  return {
    ...(run.signal ? { signal: run.signal } : {}),
    ...(run.deadlineAt !== undefined ? { deadlineAt: run.deadlineAt } : {}),
  };
}

// instance_id values per lookup query: a page of KEB's, and a URL of a few KB.
const LOOKUP_IDS = 100;

/**
 * Stage 4: before anything may resolve, the runtimes the snapshot has and the scan did not list
 * are looked up by ID (`instance_id=…&state=all`, 100 a query). One still flagged was missed by
 * the paging (an OFFSET scan cannot see a deletion balanced by an insertion between two page
 * reads): it counts as found, not resolved. The others say how they ended: their displayed state,
 * or "no longer listed". A lookup that fails or is incomplete makes the scan incomplete, so
 * nothing resolves: no KEB answer can make a flagged runtime resolve.
 */
async function confirmAbsences(
  deps: KebSourceOptions,
  run: Run,
  scan: Scan,
  state: State,
): Promise<Confirmed> {
  const endings = new Map<string, string>();
  if (!scan.complete) return { scan, endings };
  const found = new Set(scan.findings.map((f) => f.key));
  const absent = [...state.previous.values()]
    .filter((e) => !found.has(e.key) && coveredBy(run.input.filters, e.finding))
    .map((e) => e.key);
  if (absent.length === 0) return { scan, endings };
  const queries = [];
  for (let i = 0; i < absent.length; i += LOOKUP_IDS) {
    queries.push({ instanceIDs: absent.slice(i, i + LOOKUP_IDS), states: ["all" as const] });
  }
  const asked = new Set(absent);
  const missed = new Map<string, Finding>();
  const listed = new Set<string>();
  let foreign = 0;
  let lookups: ScanResult[];
  try {
    lookups = await scanAll(deps.client, queries, {
      concurrency: deps.concurrency ?? 4,
      retain: false,
      ...deadlineOf(run),
      onPage: (runtimes) => {
        for (const r of runtimes) {
          // Only an answer about a runtime that was asked for counts: one about another (a
          // gateway that drops `instance_id` answers with the whole fleet) would tell a listed
          // runtime twice and resolve the absent one on an answer that was not about it.
          if (!asked.has(r.instanceID)) {
            foreign++;
            continue;
          }
          listed.add(r.instanceID);
          const finding = deps.audit.classify(r);
          if (finding) missed.set(r.instanceID, finding);
          else endings.set(r.instanceID, r.status.state || displayedState(r.status) || "unknown");
        }
      },
    });
  } catch (err) {
    return {
      scan: blind(
        scan,
        `confirming ${countOf(absent.length, "absent runtimes")} failed: ${(err as Error).message}`,
      ),
      endings,
    };
  }
  const broken = lookups.find((l) => !l.complete);
  if (broken) {
    return {
      scan: blind(
        scan,
        `confirming ${countOf(absent.length, "absent runtimes")}: ${broken.incompleteReason}`,
      ),
      endings,
    };
  }
  if (foreign > 0) {
    endings.clear();
    return {
      scan: blind(
        scan,
        `confirming ${countOf(absent.length, "absent runtimes")}: KEB answered with ${countOf(foreign, "runtimes")} not asked for (is instance_id ignored on the way?)`,
      ),
      endings,
    };
  }
  for (const id of absent) if (!listed.has(id)) endings.set(id, "no longer listed");
  if (missed.size) {
    deps.log?.warn("the paging missed flagged runtimes; they stay flagged", { missed: missed.size });
  }
  return { scan: { ...scan, findings: [...scan.findings, ...missed.values()] }, endings };
}

function blind(scan: Scan, reason: string): Scan {
  return {
    ...scan,
    complete: false,
    incompleteReason: redact(reason).slice(0, 600),
    incompleteCode: "KEB_INCOMPLETE",
  };
}
