import { compareTimes, displayedState, ZERO_TIME } from "@fleet-auditor/keb";
import { SERVICE_CLASS } from "./catalog.ts";
import type { SimArchivedInstance, SimInstance, SimOperation } from "./model.ts";

type Json = Record<string, unknown>;

// KEB returns only the 2 newest update and cluster-upgrade operations with op_detail=all.
const NEWEST_UPGRADES = 2;

function wireOperation(op: SimOperation, parameters: Json): Json {
  const out: Json = {
    state: op.state,
    description: op.description,
    createdAt: op.createdAt,
    updatedAt: op.updatedAt,
    operationID: op.id,
    finishedStages: op.finishedStages,
  };
  if (op.executedButNotCompletedSteps?.length)
    out.executedButNotCompletedSteps = op.executedButNotCompletedSteps;
  out.parameters = op.type === "provision" ? parameters : {};
  if (op.error) out.error = op.error;
  return out;
}

function list(ops: SimOperation[], parameters: Json, totalCount = ops.length): Json {
  return { data: ops.map((o) => wireOperation(o, parameters)), totalCount, count: ops.length };
}

const newestFirst = (a: SimOperation, b: SimOperation): number => compareTimes(b.createdAt, a.createdAt);

/** The newest operation that is neither pending nor canceled (KEB's `GetLastOperation`). */
function lastProcessed(instance: SimInstance): SimOperation | undefined {
  return instance.operations
    .filter((o) => o.state !== "pending" && o.state !== "canceled")
    .sort(newestFirst)[0];
}

/**
 * Renders one instance as `GET /runtimes` does (`internal/runtime/converter.go`): the operations
 * grouped into `status` fields for `op_detail`, the displayed state computed from them, and
 * `modifiedAt` from the last processed operation.
 */
export function renderRuntime(instance: SimInstance, opDetail: "all" | "last"): Json {
  const p = instance.parameters;
  const status: Json = { createdAt: instance.createdAt, modifiedAt: instance.updatedAt };
  if (instance.expiredAt) status.expiredAt = instance.expiredAt;
  if (instance.deletedAt) status.deletedAt = instance.deletedAt;
  const last = lastProcessed(instance);
  if (last) status.modifiedAt = last.updatedAt;
  const provisions = instance.operations.filter((o) => o.type === "provision").sort(newestFirst);
  const oldestProvision = provisions[provisions.length - 1];

  if (opDetail === "last") {
    if (last) placeLast(status, last, last === oldestProvision, p);
  } else {
    if (oldestProvision) status.provisioning = wireOperation(oldestProvision, p);
    const unsuspensions = provisions.slice(0, -1);
    if (unsuspensions.length) status.unsuspension = list(unsuspensions, p);
    const deprovisions = instance.operations.filter((o) => o.type === "deprovision").sort(newestFirst);
    const permanent = deprovisions.find((o) => !o.temporary);
    if (permanent && permanent.state !== "pending") status.deprovisioning = wireOperation(permanent, p);
    const suspensions = deprovisions.filter((o) => o.temporary && o.state !== "pending");
    if (suspensions.length) status.suspension = list(suspensions, p);
    const upgrades = instance.operations.filter((o) => o.type === "upgradeCluster").sort(newestFirst);
    if (upgrades.length)
      status.upgradingCluster = list(upgrades.slice(0, NEWEST_UPGRADES), p, upgrades.length);
    const updates = instance.operations.filter((o) => o.type === "update").sort(newestFirst);
    if (updates.length) {
      status.update = list(updates.slice(0, NEWEST_UPGRADES), p, updates.length);
      if (instance.emptyUpdates > 0) (status.update as Json).emptyUpdatesCount = instance.emptyUpdates;
    } else if (instance.emptyUpdates > 0) {
      status.update = { data: null, totalCount: 0, emptyUpdatesCount: instance.emptyUpdates, count: 0 };
    }
  }
  // KEB recomputes the displayed state from exactly what it embedded.
  status.state = displayedState(status as Parameters<typeof displayedState>[0]);
  return {
    instanceID: instance.instanceID,
    runtimeID: instance.runtimeID,
    globalAccountID: instance.globalAccountID,
    subscriptionGlobalAccountID: instance.subscriptionGlobalAccountID,
    subAccountID: instance.subAccountID,
    region: instance.region,
    subAccountRegion: instance.subAccountRegion,
    shootName: instance.shootName,
    serviceClassID: SERVICE_CLASS.id,
    serviceClassName: SERVICE_CLASS.name,
    servicePlanID: instance.servicePlanID,
    servicePlanName: instance.servicePlanName,
    provider: instance.provider,
    parameters: p,
    status,
    userID: instance.userID,
    subscriptionSecretName: `${instance.provider.toLowerCase()}-pool-${instance.instanceID.slice(0, 2)}`,
    betaEnabled: "false",
    usedForProduction:
      instance.servicePlanName === "trial" ? "NOT_USED_FOR_PRODUCTION" : "USED_FOR_PRODUCTION",
  };
}

function placeLast(status: Json, op: SimOperation, isFirstProvision: boolean, p: Json): void {
  const one = { data: [wireOperation(op, p)], totalCount: 1, count: 1 };
  if (op.type === "provision") {
    if (isFirstProvision) status.provisioning = wireOperation(op, p);
    else status.unsuspension = one;
  } else if (op.type === "deprovision") {
    if (op.temporary) status.suspension = one;
    else status.deprovisioning = wireOperation(op, p);
  } else if (op.type === "update") {
    status.update = one;
  } else {
    status.upgradingCluster = one;
  }
}

/** An archived row rebuilt as `InstanceFromInstanceArchived` does: empty state, zero times, no user. */
export function renderArchived(row: SimArchivedInstance): Json {
  return {
    instanceID: row.instanceID,
    runtimeID: row.lastRuntimeID,
    globalAccountID: row.globalAccountID,
    subscriptionGlobalAccountID: "",
    subAccountID: row.subAccountID,
    region: row.region,
    subAccountRegion: row.subAccountRegion,
    shootName: row.shootName,
    serviceClassID: SERVICE_CLASS.id,
    serviceClassName: SERVICE_CLASS.name,
    servicePlanID: row.servicePlanID,
    servicePlanName: row.servicePlanName,
    provider: row.provider,
    parameters: {},
    status: {
      createdAt: row.createdAt,
      modifiedAt: ZERO_TIME,
      deletedAt: row.lastDeprovisioningFinishedAt,
      state: "",
      provisioning: {
        state: "succeeded",
        description: "",
        createdAt: row.provisioningStartedAt,
        updatedAt: row.provisioningFinishedAt,
        operationID: "",
        finishedStages: null,
        parameters: {},
      },
      deprovisioning: {
        state: "",
        description: "",
        createdAt: ZERO_TIME,
        updatedAt: row.lastDeprovisioningFinishedAt,
        operationID: "",
        finishedStages: null,
        parameters: {},
      },
    },
    userID: "- deleted -",
    subscriptionSecretName: "",
  };
}
