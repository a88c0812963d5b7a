import { compareTimes } from "@fleet-auditor/keb";
import { BadQueryError } from "./errors.ts";
import type { SimInstance, SimOperation } from "./model.ts";

/** Paging read exactly as `common/pagination/pagination.go` does. */
export function readPaging(query: URLSearchParams, maxPage = 100): { page: number; pageSize: number } {
  return {
    page: readInt(query, "page", "page", 1, maxPage, false),
    pageSize: readInt(query, "page_size", "pageSize", maxPage, maxPage, true),
  };
}

function readInt(
  query: URLSearchParams,
  key: string,
  label: string,
  fallback: number,
  max: number,
  capped: boolean,
): number {
  const values = query.getAll(key);
  if (values.length === 0) return fallback;
  if (values.length > 1) throw new BadQueryError(`${label} has to be one parameter`);
  const raw = values[0] ?? "";
  if (!/^[+-]?\d+$/.test(raw)) throw new BadQueryError(`${label} has to be an integer`);
  const value = Number(raw);
  if (capped && value > max) throw new BadQueryError(`${label} is bigger than maxPage(${max})`);
  if (value < 1) throw new BadQueryError(`${label} cannot be smaller than 1`);
  return value;
}

const KNOWN_STATES = new Set([
  "succeeded",
  "failed",
  "error",
  "provisioning",
  "deprovisioning",
  "upgrading",
  "updating",
  "suspended",
  "deprovisioned",
  "deprovisionincomplete",
  "all",
]);

/** The filters of one request, after KEB's `getFilters`. */
export interface InstanceFilter {
  accounts: string[];
  subaccounts: string[];
  instanceIDs: string[];
  runtimeIDs: string[];
  regions: string[];
  plans: string[];
  shoots: string[];
  /** Recognised state conditions, ORed. Empty with `defaultExclusion` false means no condition. */
  states: string[];
  /** No `state` parameter at all: hide runtimes whose last operation is a succeeded deprovision. */
  defaultExclusion: boolean;
  /** `state=suspended`: ORed with the states, `ers_context.active = false`. */
  suspended: boolean;
  /** `state=deprovisionincomplete`: ANDed with everything, `deleted_at` set. */
  deletionAttempted: boolean;
  /** `state=deprovisioned`: the archive branch. */
  deprovisioned: boolean;
  expired: boolean;
}

/** Reads the filters the way KEB's handler does: repeated keys, no comma splitting, unknown states ignored. */
export function readFilters(query: URLSearchParams): InstanceFilter {
  const stateValues = query.getAll("state");
  const filter: InstanceFilter = {
    accounts: query.getAll("account"),
    subaccounts: query.getAll("subaccount"),
    instanceIDs: query.getAll("instance_id"),
    runtimeIDs: query.getAll("runtime_id"),
    regions: query.getAll("region"),
    plans: query.getAll("plan"),
    shoots: query.getAll("shoot"),
    states: [],
    defaultExclusion: stateValues.length === 0,
    suspended: false,
    deletionAttempted: false,
    deprovisioned: false,
    // Only the literal `true` in the first value counts.
    expired: query.getAll("expired")[0] === "true",
  };
  let all = false;
  for (const value of stateValues) {
    if (!KNOWN_STATES.has(value)) continue; // `succeeded,failed` lands here: silently ignored.
    if (value === "all") all = true;
    else if (value === "suspended") filter.suspended = true;
    else if (value === "deprovisionincomplete") filter.deletionAttempted = true;
    else filter.states.push(value);
  }
  if (all) filter.states = []; // `all` clears the list only; the flags stay in force.
  if (filter.states.includes("deprovisioned")) {
    filter.deprovisioned = true;
    filter.deletionAttempted = true;
  }
  return filter;
}

/** `op_detail`: invalid values are ignored, the last valid one wins, default `all`. */
export function readOpDetail(query: URLSearchParams): "all" | "last" {
  let detail: "all" | "last" = "all";
  for (const v of query.getAll("op_detail")) if (v === "all" || v === "last") detail = v;
  return detail;
}

/**
 * The operation KEB's `last_operation_id` points at: the newest one that started processing.
 * Pending (queued) operations never move it.
 */
export function filterOperation(instance: SimInstance): SimOperation | undefined {
  let pick: SimOperation | undefined;
  for (const op of instance.operations) {
    if (op.state === "pending") continue;
    if (!pick || compareTimes(op.createdAt, pick.createdAt) >= 0) pick = op;
  }
  return pick;
}

function stateCondition(state: string, op: SimOperation | undefined): boolean {
  if (!op) return false;
  const { type: t, state: s } = op;
  switch (state) {
    case "succeeded":
      return s === "succeeded" && t !== "deprovision";
    case "failed":
      return (t === "provision" || t === "deprovision") && s === "failed";
    case "error":
      return t !== "provision" && t !== "deprovision" && s === "failed";
    case "provisioning":
      return t === "provision" && s === "in progress";
    case "deprovisioning":
      return t === "deprovision" && s === "in progress";
    case "upgrading":
      return t === "upgradeCluster" && s === "in progress";
    case "updating":
      return t === "update" && s === "in progress";
    case "deprovisioned":
      return t === "deprovision" && s === "succeeded";
    default:
      return false;
  }
}

/**
 * Builds the row predicate: the SQL of `buildInstanceStateFilters` and `addInstanceFilters`.
 * Throws a `SyntaxError` when a shoot value is not a valid regex (KEB's database would fail: 500).
 */
export function instancePredicate(filter: InstanceFilter): (instance: SimInstance) => boolean {
  const sets = {
    accounts: new Set(filter.accounts),
    subaccounts: new Set(filter.subaccounts),
    instanceIDs: new Set(filter.instanceIDs),
    runtimeIDs: new Set(filter.runtimeIDs),
    regions: new Set(filter.regions),
    plans: new Set(filter.plans),
  };
  // KEB joins shoot values unescaped into one regex: metacharacters are live.
  const shoot = filter.shoots.length ? new RegExp(`^(${filter.shoots.join("|")})$`) : undefined;
  const anyStateCondition = filter.states.length > 0 || filter.suspended;
  return (i) => {
    if (sets.accounts.size && !sets.accounts.has(i.globalAccountID)) return false;
    if (sets.subaccounts.size && !sets.subaccounts.has(i.subAccountID)) return false;
    if (sets.instanceIDs.size && !sets.instanceIDs.has(i.instanceID)) return false;
    if (sets.runtimeIDs.size && !sets.runtimeIDs.has(i.runtimeID)) return false;
    if (sets.regions.size && !sets.regions.has(i.region)) return false;
    if (sets.plans.size && !sets.plans.has(i.servicePlanName)) return false;
    if (shoot && !shoot.test(i.shootName)) return false;
    if (filter.expired && i.expiredAt === undefined) return false;
    if (filter.deletionAttempted && i.deletedAt === undefined) return false;
    const op = filterOperation(i);
    if (filter.defaultExclusion) return !(op?.type === "deprovision" && op.state === "succeeded");
    if (!anyStateCondition) return true;
    return filter.states.some((s) => stateCondition(s, op)) || (filter.suspended && !i.active);
  };
}
