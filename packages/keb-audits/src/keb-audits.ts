import { type Finding, labelOf, type Severity } from "@fleet-auditor/audit";
import { displayedState, type Runtime, type RuntimeFilters } from "@fleet-auditor/keb/model";
import type { KebAuditDefinition } from "./keb-audit-definition.ts";
import { KEB_LABELS, kebDetail, toFinding } from "./keb-finding.ts";
import { kebPresenter } from "./keb-presenter.ts";

const stateOfRuntime = (runtime: Runtime): string => runtime.status.state || displayedState(runtime.status);

// A Map: the state is KEB's text, and `constructor` must not reach Object.prototype.
const FAILING_SEVERITY: ReadonlyMap<string, Severity> = new Map([
  ["failed", "critical"],
  ["error", "warning"],
  ["deprovisionincomplete", "warning"],
]);

/**
 * The finding with its onset: when KEB says the problem began (the failing operation's last
 * update, the expiry), as an ISO time in UTC; none when KEB's time does not read as one.
 */
function withOnset(finding: Finding, time: string | undefined): Finding {
  const t = time === undefined ? Number.NaN : Date.parse(time);
  if (Number.isNaN(t)) return finding;
  const iso = new Date(t).toISOString();
  return /^\d{4}-/.test(iso) ? { ...finding, startsAt: iso } : finding;
}

/** How KEB findings group by default: one incident per state, reason and region. */
export const KEB_GROUP_BY = ["state", "reason", "region"] as const;

/** Runtimes KEB shows as `failed`, `error` or `deprovisionincomplete`. */
export const failingAudit: KebAuditDefinition = {
  name: "failing",
  description: "runtimes in failed, error or deprovisionincomplete state",
  groupBy: KEB_GROUP_BY,
  labels: KEB_LABELS,
  presenter: kebPresenter,
  // KEB ANDs deprovisionincomplete with the other states, so it needs a query of its own.
  queries: [{ states: ["failed", "error"] }, { states: ["deprovisionincomplete"] }],
  classify(runtime) {
    const state = stateOfRuntime(runtime);
    const severity = FAILING_SEVERITY.get(state);
    if (!severity) return undefined;
    const finding = toFinding(runtime, state, severity);
    return withOnset(finding, kebDetail(finding).operation?.updatedAt);
  },
};

/** Expired trial and free runtimes; `suspended` ones are informational, the rest need a look. */
export const expiredAudit: KebAuditDefinition = {
  name: "expired",
  description: "expired runtimes; warning until their suspension has succeeded",
  groupBy: KEB_GROUP_BY,
  labels: KEB_LABELS,
  presenter: kebPresenter,
  // Without state=all KEB hides the (successfully suspended) majority of expired runtimes.
  queries: [{ expired: true, states: ["all"] }],
  classify(runtime) {
    const state = stateOfRuntime(runtime);
    const finding = toFinding(runtime, state, state === "suspended" ? "info" : "warning");
    const { expiredAt } = kebDetail(finding);
    return expiredAt ? withOnset(finding, expiredAt) : undefined;
  },
};

/** The audits of KEB (the applications audit reads the status table instead). */
export const KEB_AUDITS: readonly KebAuditDefinition[] = [failingAudit, expiredAudit];

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
  const within = (values: readonly string[] | undefined, label: string): boolean =>
    values === undefined || values.includes(labelOf(f.labels, label));
  return (
    within(filters.plans, "plan") &&
    within(filters.regions, "region") &&
    within(filters.globalAccountIDs, "account") &&
    within(filters.subAccountIDs, "subaccount") &&
    within(filters.shoots, "shoot") &&
    within(filters.instanceIDs, "instance") &&
    within(filters.runtimeIDs, "runtime")
  );
}
