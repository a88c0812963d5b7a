import {
  DEPROVISIONING_STAGES,
  FAILURES,
  PLANS,
  type Plan,
  PROVISIONING_STAGES,
  SUBACCOUNT_REGIONS,
} from "./catalog.ts";
import { DAY_MS, goTime, HOUR_MS } from "./go-time.ts";
import type { SimInstance, SimOperation } from "./model.ts";
import { Random } from "./random.ts";

/** What the auditor flags; the rest of a fleet is healthy or busy. */
export type FlaggedScenario =
  | "provision-failed"
  | "deprovision-failed"
  | "suspension-failed"
  | "update-failed"
  | "upgrade-failed"
  | "deprovision-incomplete"
  | "expired-suspended"
  | "expired-suspending";

export type HealthyScenario =
  | "running"
  | "updated"
  | "upgraded"
  | "provisioning"
  | "updating"
  | "upgrading"
  | "deprovisioning"
  | "update-pending"
  | "unsuspended"
  | "deactivated";

const FLAGGED: ReadonlyArray<readonly [FlaggedScenario, number]> = [
  ["provision-failed", 18],
  ["deprovision-failed", 6],
  ["suspension-failed", 4],
  ["update-failed", 16],
  ["upgrade-failed", 8],
  ["deprovision-incomplete", 10],
  ["expired-suspended", 30],
  ["expired-suspending", 8],
];

const HEALTHY: ReadonlyArray<readonly [HealthyScenario, number]> = [
  ["running", 55],
  ["updated", 20],
  ["upgraded", 8],
  ["provisioning", 3],
  ["updating", 3],
  ["upgrading", 2],
  ["deprovisioning", 2],
  ["update-pending", 3],
  ["unsuspended", 2],
  ["deactivated", 2],
];

/** Options of `generateFleet`. */
export interface FleetOptions {
  /** Number of runtimes, 10 to 100,000 (more works, slowly). */
  size: number;
  seed?: number;
  /** Exactly this many flagged runtimes (failed, error, deprovisionincomplete, expired). Default ~6%. */
  flagged?: number;
  /**
   * The share of the flagged runtimes that are expired (the rest failing), 0 to 1: exactly
   * `round(flagged × share)` of them, and no failed suspension (both at once). Default: the
   * catalog's mix, about 38 % expired and 4 % both.
   */
  expiredShare?: number;
  /** The fleet's "now", epoch ms; creation times lie in the two years before. Default 2026-11-01. */
  now?: number;
}

/** The default clock of a generated fleet: fixed, so the same seed gives the same bytes. */
export const DEFAULT_FLEET_NOW = Date.UTC(2026, 10, 1, 6, 0, 0);

/**
 * A deterministic, realistic fleet: plans, providers, regions and accounts in production-like
 * proportions, and operation histories for each scenario. Sorted by `createdAt` ascending.
 */
export function generateFleet(options: FleetOptions): SimInstance[] {
  const { size } = options;
  const rng = new Random(options.seed ?? 1);
  const now = options.now ?? DEFAULT_FLEET_NOW;
  const flaggedCount = Math.min(size, options.flagged ?? Math.round(size * 0.06));
  const flaggedAt = chooseIndexes(rng, size, flaggedCount);
  const expiredAt = expiredOf(flaggedAt, options.expiredShare);
  const accounts = Array.from({ length: Math.max(1, Math.ceil(size / 25)) }, () => rng.uuid());
  const span = 730 * DAY_MS;
  // Creation times spread over two years, strictly increasing (KEB pages by created_at).
  const start = now - span;
  const step = Math.floor((span - DAY_MS) / Math.max(1, size));
  const instances: SimInstance[] = [];
  for (let i = 0; i < size; i++) {
    const createdMs = start + i * step + rng.int(0, Math.max(0, step - 1));
    const scenario = flaggedAt.has(i) ? rng.weighted(flaggedMix(expiredAt, i)) : rng.weighted(HEALTHY);
    instances.push(buildInstance(rng, scenario, createdMs, now, rng.pick(accounts)));
  }
  return instances;
}

// With a share asked for, a runtime is in one audit only: a failed suspension (expired and failed)
// is left out.
const EXPIRED = FLAGGED.filter(([s]) => s.startsWith("expired"));
const FAILING = FLAGGED.filter(([s]) => !s.startsWith("expired") && s !== "suspension-failed");

/** The flagged indexes that are expired, when a share is asked for: the first ones chosen. */
function expiredOf(flaggedAt: Set<number>, share: number | undefined): Set<number> | undefined {
  if (share === undefined) return undefined;
  const count = Math.round(flaggedAt.size * Math.min(1, Math.max(0, share)));
  return new Set([...flaggedAt].slice(0, count));
}

function flaggedMix(
  expiredAt: Set<number> | undefined,
  i: number,
): ReadonlyArray<readonly [FlaggedScenario, number]> {
  if (!expiredAt) return FLAGGED;
  return expiredAt.has(i) ? EXPIRED : FAILING;
}

function chooseIndexes(rng: Random, size: number, count: number): Set<number> {
  const chosen = new Set<number>();
  while (chosen.size < count) chosen.add(rng.int(0, size - 1));
  return chosen;
}

function planFor(rng: Random, scenario: FlaggedScenario | HealthyScenario): Plan {
  const expiring = scenario.startsWith("expired") || scenario === "suspension-failed";
  const pool = expiring ? PLANS.filter((p) => p.expirable) : PLANS;
  return rng.weighted(pool.map((p) => [p, p.weight] as const));
}

/** Builds one runtime in the given scenario. Exported for the fleet's `create` mutation. */
export function buildInstance(
  rng: Random,
  scenario: FlaggedScenario | HealthyScenario,
  createdMs: number,
  now: number,
  globalAccountID: string,
): SimInstance {
  const plan = planFor(rng, scenario);
  const region = rng.pick(plan.regions);
  const name = `${plan.name.replace(/_/g, "-")}-${rng.int(1, 999)}`;
  const parameters: Record<string, unknown> = { name, region };
  if (!plan.expirable) Object.assign(parameters, { autoScalerMin: 3, autoScalerMax: rng.pick([10, 20, 40]) });
  const instance: SimInstance = {
    instanceID: rng.uuid(),
    runtimeID: rng.uuid(),
    globalAccountID,
    subscriptionGlobalAccountID: "",
    subAccountID: rng.uuid(),
    region,
    subAccountRegion: rng.pick(SUBACCOUNT_REGIONS),
    shootName: rng.shootName(),
    servicePlanID: plan.id,
    servicePlanName: plan.name,
    provider: plan.provider,
    userID: `user${rng.int(1, 99_999)}@example.com`,
    parameters,
    createdAt: goTime(createdMs, rng.int(0, 999)),
    updatedAt: goTime(createdMs),
    active: true,
    emptyUpdates: rng.chance(0.05) ? rng.int(1, 5) : 0,
    operations: [],
  };
  const ops = new OperationWriter(rng, instance);
  const age = Math.max(HOUR_MS, now - createdMs);
  const later = (fraction: number): number => createdMs + Math.floor(age * fraction);
  const recent = now - rng.int(1, 48) * HOUR_MS;

  switch (scenario) {
    case "provision-failed":
      ops.add("provision", "failed", createdMs, { fail: 1 });
      instance.runtimeID = rng.chance(0.5) ? "" : instance.runtimeID;
      instance.region = rng.chance(0.3) ? "" : instance.region;
      break;
    case "provisioning":
      ops.add("provision", "in progress", Math.max(createdMs, recent));
      break;
    default:
      ops.add("provision", "succeeded", createdMs);
  }
  switch (scenario) {
    case "updated":
      ops.add("update", "succeeded", later(0.5));
      ops.add("update", "succeeded", later(0.8));
      break;
    case "upgraded":
      ops.add("upgradeCluster", "succeeded", later(0.6));
      break;
    case "updating":
      ops.add("update", "in progress", recent);
      break;
    case "upgrading":
      ops.add("upgradeCluster", "in progress", recent);
      break;
    case "update-pending":
      ops.add("update", "succeeded", later(0.4));
      ops.add("update", "pending", recent);
      break;
    case "update-failed":
      ops.add("update", "succeeded", later(0.3));
      ops.add("update", "failed", later(0.9), { fail: 3 });
      break;
    case "upgrade-failed":
      ops.add("upgradeCluster", "failed", later(0.9), { fail: 3 });
      break;
    case "deprovisioning":
      ops.add("deprovision", "in progress", recent);
      break;
    case "deprovision-failed":
      ops.add("deprovision", "failed", later(0.95), { fail: 4 });
      break;
    case "deprovision-incomplete": {
      const at = later(0.95);
      ops.add("deprovision", "succeeded", at, { incomplete: true });
      instance.deletedAt = goTime(at + 14 * 60_000, rng.int(0, 999));
      break;
    }
    case "unsuspended":
      ops.add("deprovision", "succeeded", later(0.5), { temporary: true });
      ops.add("provision", "succeeded", later(0.7));
      break;
    case "deactivated":
      ops.add("deprovision", "succeeded", later(0.9), { temporary: true });
      instance.active = false;
      instance.runtimeID = "";
      break;
    case "expired-suspended":
    case "expired-suspending":
    case "suspension-failed": {
      const at = later(0.97);
      const state =
        scenario === "expired-suspended"
          ? "succeeded"
          : scenario === "expired-suspending"
            ? "in progress"
            : "failed";
      ops.add("deprovision", state, at, { temporary: true, fail: state === "failed" ? 4 : undefined });
      instance.expiredAt = goTime(at - 1000, rng.int(0, 999));
      instance.active = false;
      if (state === "succeeded") instance.runtimeID = "";
      break;
    }
  }
  return instance;
}

/** Appends operations with plausible stages, descriptions and errors. */
export class OperationWriter {
  readonly #rng: Random;
  readonly #instance: SimInstance;
  constructor(rng: Random, instance: SimInstance) {
    this.#rng = rng;
    this.#instance = instance;
  }

  add(
    type: SimOperation["type"],
    state: SimOperation["state"],
    atMs: number,
    extra: { temporary?: boolean; fail?: number | undefined; incomplete?: boolean } = {},
  ): SimOperation {
    const rng = this.#rng;
    const stages = type === "deprovision" ? DEPROVISIONING_STAGES : PROVISIONING_STAGES;
    const done =
      state === "succeeded" ? stages.length : state === "pending" ? 0 : rng.int(1, stages.length - 2);
    const finishedMs = atMs + rng.int(5, 40) * 60_000;
    const op: SimOperation = {
      id: rng.uuid(),
      type,
      temporary: extra.temporary ?? false,
      state,
      description: describe(state),
      createdAt: goTime(atMs, rng.int(0, 999)),
      updatedAt: goTime(
        state === "in progress" || state === "pending" ? atMs + 60_000 : finishedMs,
        rng.int(0, 999),
      ),
      finishedStages: done === 0 ? null : stages.slice(0, done),
    };
    if (extra.incomplete) op.executedButNotCompletedSteps = ["Delete_Kyma_Resource"];
    if (state === "failed") {
      const failure =
        FAILURES[(extra.fail ?? rng.int(0, FAILURES.length - 1)) % FAILURES.length] ?? FAILURES[0];
      op.error = { ...failure };
      op.description = `${failure.message}`;
    }
    this.#instance.operations.push(op);
    this.#instance.updatedAt = op.updatedAt;
    return op;
  }
}

function describe(state: SimOperation["state"]): string {
  switch (state) {
    case "succeeded":
      return "Processing finished";
    case "in progress":
      return "Operation created";
    case "pending":
      return "Operation is pending";
    default:
      return state;
  }
}
