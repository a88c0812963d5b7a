import { displayedState, type Runtime, type RuntimeFilters } from "@fleet-auditor/keb/model";
import { UnknownAuditError } from "./errors.ts";
import { type Finding, type Severity, toFinding } from "./finding.ts";

/** A named, data-driven audit of KEB: which queries to list and what counts as flagged. */
export interface KebAuditDefinition {
  source: "keb";
  name: string;
  description: string;
  /** Listed separately and merged; each is a full set of KEB filters. */
  queries: readonly RuntimeFilters[];
  /** The finding for a flagged runtime, or undefined. Decided from `status`, never from the query. */
  classify(runtime: Runtime): Finding | undefined;
}

/** An audit of the KubeEdge Application status table (stuck, refused, quarantined). */
export interface StatusTableAuditDefinition {
  source: "status-table";
  name: string;
  description: string;
}

/** An audit the engine runs: what it reads differs, the diff, messages and ledger do not. */
export type AuditDefinition = KebAuditDefinition | StatusTableAuditDefinition;

const stateOf = (runtime: Runtime): string => runtime.status.state || displayedState(runtime.status);

// A Map: the state is KEB's text, and `constructor` must not reach Object.prototype.
const FAILING_SEVERITY: ReadonlyMap<string, Severity> = new Map([
  ["failed", "critical"],
  ["error", "warning"],
  ["deprovisionincomplete", "warning"],
]);

/** Runtimes KEB shows as `failed`, `error` or `deprovisionincomplete`. */
export const failingAudit: KebAuditDefinition = {
  source: "keb",
  name: "failing",
  description: "runtimes in failed, error or deprovisionincomplete state",
  // KEB ANDs deprovisionincomplete with the other states, so it needs a query of its own.
  queries: [{ states: ["failed", "error"] }, { states: ["deprovisionincomplete"] }],
  classify(runtime) {
    const state = stateOf(runtime);
    const severity = FAILING_SEVERITY.get(state);
    return severity ? toFinding(runtime, state, severity) : undefined;
  },
};

/** Expired trial and free runtimes; `suspended` ones are informational, the rest need a look. */
export const expiredAudit: KebAuditDefinition = {
  source: "keb",
  name: "expired",
  description: "expired runtimes; warning until their suspension has succeeded",
  // Without state=all KEB hides the (successfully suspended) majority of expired runtimes.
  queries: [{ expired: true, states: ["all"] }],
  classify(runtime) {
    const finding = toFinding(runtime, stateOf(runtime), "info");
    if (!finding.expiredAt) return undefined;
    finding.severity = finding.state === "suspended" ? "info" : "warning";
    return finding;
  },
};

/**
 * KubeEdge Applications stuck in flight, nodes whose requests the cloud keeps refusing, and
 * messages quarantined as unreadable: read from the Application status table's watched index.
 */
export const applicationsAudit: StatusTableAuditDefinition = {
  source: "status-table",
  name: "applications",
  description: "KubeEdge Applications stuck in flight, refusing nodes, quarantined messages",
};

/** The audits of KEB (the applications audit reads the status table instead). */
export const KEB_AUDITS: readonly KebAuditDefinition[] = [failingAudit, expiredAudit];

/** The audits that ship by default. */
export const AUDITS: readonly AuditDefinition[] = [failingAudit, expiredAudit, applicationsAudit];

/** The audit named `name`; throws `UnknownAuditError` listing the known ones. */
export function auditNamed(name: string, audits: readonly AuditDefinition[] = AUDITS): AuditDefinition {
  const audit = audits.find((a) => a.name === name);
  if (!audit)
    throw new UnknownAuditError(
      name,
      audits.map((a) => a.name),
    );
  return audit;
}

/** Filters a run may add to narrow an audit; states stay the audit's own. */
export type NarrowingFilters = Omit<RuntimeFilters, "states" | "expired">;

/** The audit's queries with the run's extra filters ANDed in. */
export function narrowedQueries(audit: KebAuditDefinition, extra: NarrowingFilters = {}): RuntimeFilters[] {
  return audit.queries.map((q) => ({ ...q, ...extra }));
}

/**
 * Whether a run narrowed by `filters` looked at this finding's runtime (by its last known
 * placement): only what a run looked at may resolve. No filter covers everything.
 */
export function coveredBy(filters: NarrowingFilters | undefined, f: Finding): boolean {
  if (!filters) return true;
  const within = (values: readonly string[] | undefined, value: string): boolean =>
    values === undefined || values.includes(value);
  return (
    within(filters.plans, f.plan) &&
    within(filters.regions, f.region) &&
    within(filters.globalAccountIDs, f.globalAccountID) &&
    within(filters.subAccountIDs, f.subAccountID) &&
    within(filters.shoots, f.shootName) &&
    within(filters.instanceIDs, f.instanceID) &&
    within(filters.runtimeIDs, f.runtimeID)
  );
}
