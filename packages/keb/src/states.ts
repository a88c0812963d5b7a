/** Runtime states as KEB displays them (`status.state`); `""` appears on archived rows. */
const RUNTIME_STATES = [
  "succeeded",
  "failed",
  "error",
  "provisioning",
  "deprovisioning",
  "deprovisioned",
  "deprovisionincomplete",
  "upgrading",
  "updating",
  "suspended",
] as const;

/** A displayed runtime state. */
export type RuntimeState = (typeof RUNTIME_STATES)[number];

/** What the `state` query parameter accepts: the displayed states plus the virtual `all`. */
const STATE_FILTERS = [...RUNTIME_STATES, "all"] as const;
export type StateFilter = (typeof STATE_FILTERS)[number];

/** The kind of an operation, inferred from the `status` field it came from (the wire carries no `type`). */
export type OperationKind =
  | "provision"
  | "deprovision"
  | "cluster upgrade"
  | "update"
  | "suspension"
  | "unsuspension";

/** Type guard for a state filter value. */
export function isStateFilter(value: string): value is StateFilter {
  return (STATE_FILTERS as readonly string[]).includes(value);
}
