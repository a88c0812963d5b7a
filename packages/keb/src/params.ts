import { KebConfigError } from "./errors.ts";
import { isStateFilter, type StateFilter } from "./states.ts";

/** KEB's largest accepted `page_size` (`MaxPaginationPage`); larger values get a 400. */
export const MAX_PAGE_SIZE = 100;

/**
 * Filters and flags of `GET /runtimes`, after KEB's `runtime.ListParameters`.
 * List filters are ORed within a key; different keys are ANDed by KEB.
 */
export interface RuntimeFilters {
  globalAccountIDs?: readonly string[];
  subAccountIDs?: readonly string[];
  instanceIDs?: readonly string[];
  runtimeIDs?: readonly string[];
  /** Hyperscaler region (`westeurope`), not the BTP region (`cf-eu10`). */
  regions?: readonly string[];
  /** Shoot names. KEB matches them as a regex, so only plain shoot names are accepted. */
  shoots?: readonly string[];
  /** Plan names (`azure`, `trial`); KEB has no plan-ID filter. */
  plans?: readonly string[];
  /** Beware: `deprovisionincomplete` is ANDed with the other states, and no state hides suspended runtimes. */
  states?: readonly StateFilter[];
  expired?: boolean;
}

/** One page request: filters plus paging and detail flags. */
export interface ListParameters extends RuntimeFilters {
  /** 1-based page number. */
  page?: number;
  /** 1-100. */
  pageSize?: number;
  /** `last` embeds only the last operation (cheaper for KEB); KEB's default is `all`. */
  operationDetail?: "last" | "all";
  /** Legacy flags that current KEB ignores; accepted so old callers keep working. */
  kymaConfig?: boolean;
  clusterConfig?: boolean;
}

const LIST_KEYS = [
  ["globalAccountIDs", "account"],
  ["subAccountIDs", "subaccount"],
  ["instanceIDs", "instance_id"],
  ["runtimeIDs", "runtime_id"],
  ["regions", "region"],
  ["shoots", "shoot"],
  ["plans", "plan"],
  ["states", "state"],
] as const satisfies ReadonlyArray<readonly [keyof RuntimeFilters, string]>;

// Gardener shoot names are DNS labels; anything else would be live regex syntax in KEB's `^(a|b)$`.
const SHOOT_NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

/**
 * The filter part of a query string exactly as KEB reads it: one repeated key per value, never
 * comma-joined, booleans only when true. Throws `KebConfigError` for values KEB would silently
 * misread (an unknown or comma-joined state switches KEB's state filtering off entirely).
 *
 * @example filterQuery({ states: ["all"], expired: true }) // "expired=true&state=all"
 */
export function filterQuery(filters: RuntimeFilters): string {
  const query = filterSearchParams(filters);
  // Keys sorted (values keep their order), as Go's url.Values.Encode does: one label per query.
  query.sort();
  return query.toString();
}

/** The full query string for one page, with `page`, `page_size` and `op_detail`. */
export function pageQuery(params: ListParameters): string {
  const query = new URLSearchParams();
  const page = params.page ?? 1;
  const pageSize = params.pageSize ?? MAX_PAGE_SIZE;
  if (!Number.isInteger(page) || page < 1)
    throw new KebConfigError(`page must be an integer >= 1, got ${page}`);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
    throw new KebConfigError(`page_size must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${pageSize}`);
  }
  query.set("page", String(page));
  query.set("page_size", String(pageSize));
  if (params.operationDetail) query.set("op_detail", params.operationDetail);
  for (const [key, value] of filterSearchParams(params)) query.append(key, value);
  if (params.kymaConfig) query.set("kyma_config", "true");
  if (params.clusterConfig) query.set("cluster_config", "true");
  return query.toString();
}

function filterSearchParams(filters: RuntimeFilters): URLSearchParams {
  const query = new URLSearchParams();
  for (const [field, key] of LIST_KEYS) {
    for (const value of filters[field] ?? []) {
      checkValue(field, value);
      query.append(key, value);
    }
  }
  if (filters.expired) query.set("expired", "true");
  return query;
}

function checkValue(field: keyof RuntimeFilters, value: string): void {
  if (value === "") throw new KebConfigError(`${field}: empty value`);
  if (field === "states" && !isStateFilter(value)) {
    throw new KebConfigError(
      `states: unknown state ${JSON.stringify(value)}; KEB would ignore it and return every runtime. ` +
        "Pass one state per value (no commas), in lowercase.",
    );
  }
  if (field === "shoots" && !SHOOT_NAME.test(value)) {
    throw new KebConfigError(
      `shoots: ${JSON.stringify(value)} is not a shoot name (KEB matches it as a regex)`,
    );
  }
}
