import type { Operation, OperationsData, RuntimeStatus } from "./schemas.ts";
import type { OperationKind, RuntimeState } from "./states.ts";
import { compareTimes } from "./time.ts";

/** An operation together with the kind inferred from where KEB put it. */
export interface KindedOperation {
  kind: OperationKind;
  operation: Operation;
}

function newest(list: OperationsData | null | undefined): Operation | undefined {
  // KEB sorts these lists newest first and checks `count`, not the array length.
  return list && list.count > 0 ? (list.data?.[0] ?? undefined) : undefined;
}

/**
 * The runtime's last operation, as KEB's `RuntimeDTO.LastOperation()` picks it: provisioning,
 * then a cluster upgrade unconditionally, then unsuspension, suspension, deprovisioning and update
 * each only when strictly newer than the current pick.
 */
export function lastOperation(status: RuntimeStatus): KindedOperation | undefined {
  let pick: KindedOperation | undefined;
  if (status.provisioning) pick = { kind: "provision", operation: status.provisioning };
  const upgrade = newest(status.upgradingCluster);
  if (upgrade) pick = { kind: "cluster upgrade", operation: upgrade };
  const candidates: Array<[OperationKind, Operation | undefined]> = [
    ["unsuspension", newest(status.unsuspension)],
    ["suspension", newest(status.suspension)],
    ["deprovision", status.deprovisioning ?? undefined],
    ["update", newest(status.update)],
  ];
  for (const [kind, operation] of candidates) {
    if (!operation) continue;
    // Go compares against the zero time when nothing was picked yet, so any candidate wins.
    if (!pick || compareTimes(operation.createdAt, pick.operation.createdAt) > 0) pick = { kind, operation };
  }
  return pick;
}

/**
 * The state KEB displays for these operations (`adjustRuntimeState` in KEB's converter), or `""`
 * when no operation is embedded. Classify from this (or from `status.state`), never from which
 * `state=` filter returned the runtime: the two can disagree.
 */
export function displayedState(status: RuntimeStatus): RuntimeState | "" {
  const last = lastOperation(status);
  if (!last) return "";
  const state = stateOf(last);
  const suspension = newest(status.suspension);
  const unsuspension = newest(status.unsuspension);
  if (suspension && (!unsuspension || compareTimes(unsuspension.createdAt, suspension.createdAt) < 0)) {
    // A suspension newer than any unsuspension decides, even over a later successful update.
    if (suspension.state === "in progress") return "deprovisioning";
    if (suspension.state === "failed") return "failed";
    return "suspended";
  }
  return state;
}

function stateOf({ kind, operation }: KindedOperation): RuntimeState {
  switch (operation.state) {
    case "succeeded":
      if (kind === "suspension") return "suspended";
      if (kind === "deprovision") {
        return (operation.executedButNotCompletedSteps?.length ?? 0) > 0
          ? "deprovisionincomplete"
          : "deprovisioned";
      }
      return "succeeded";
    case "failed":
      return kind === "update" || kind === "cluster upgrade" ? "error" : "failed";
    case "in progress":
      if (kind === "provision" || kind === "unsuspension") return "provisioning";
      if (kind === "deprovision" || kind === "suspension") return "deprovisioning";
      return kind === "cluster upgrade" ? "upgrading" : "updating";
    default:
      // pending, retrying, canceled, ...: KEB's default branch.
      return "succeeded";
  }
}
