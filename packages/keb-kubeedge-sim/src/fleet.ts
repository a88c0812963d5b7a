import { compareTimes } from "@fleet-auditor/keb";
import {
  buildInstance,
  DEFAULT_FLEET_NOW,
  type FleetOptions,
  generateFleet,
  OperationWriter,
} from "./fleet-generator.ts";
import { goTime, HOUR_MS } from "./go-time.ts";
import type { SimArchivedInstance, SimInstance } from "./model.ts";
import { Random } from "./random.ts";

/** One change made to the fleet, for logs and demos. */
export interface FleetChange {
  kind: "fail" | "recover" | "expire" | "delete" | "create";
  instanceID: string;
  detail: string;
}

/** How many runtimes of each kind `mutate` changes. */
export interface MutationPlan {
  fail?: number;
  recover?: number;
  expire?: number;
  delete?: number;
  create?: number;
}

/**
 * KEB's `instances` and `instances_archived` tables in memory, ordered by `createdAt`, with
 * mutations that move the fleet through time (each advances the clock). `version` changes on
 * every write so query results can be cached between writes.
 */
export class Fleet {
  #instances: SimInstance[];
  #byId = new Map<string, SimInstance>();
  readonly #archived: SimArchivedInstance[] = [];
  #version = 0;
  #now: number;
  readonly #rng: Random;

  constructor(instances: SimInstance[], options: { now?: number; seed?: number } = {}) {
    this.#instances = [];
    this.reset(instances);
    this.#now = options.now ?? DEFAULT_FLEET_NOW;
    this.#rng = new Random((options.seed ?? 1) ^ 0x5eed);
  }

  /** Replaces every live and archived row with `instances` (the clock keeps running). */
  reset(instances: readonly SimInstance[]): void {
    this.#instances = [...instances].sort((a, b) => compareTimes(a.createdAt, b.createdAt));
    this.#byId = new Map(this.#instances.map((i) => [i.instanceID, i]));
    this.#archived.length = 0;
    this.#version++;
  }

  /** A generated fleet; see `generateFleet`. */
  static generate(options: FleetOptions): Fleet {
    return new Fleet(generateFleet(options), { now: options.now, seed: options.seed });
  }

  /** The archive, oldest first: read-only, so that every change to it moves `version`. */
  get archived(): readonly SimArchivedInstance[] {
    return this.#archived;
  }

  get version(): number {
    return this.#version;
  }
  /** The fleet's clock, epoch ms. */
  get now(): number {
    return this.#now;
  }
  get size(): number {
    return this.#instances.length;
  }
  /** All live instances in `createdAt` order. Do not modify. */
  all(): readonly SimInstance[] {
    return this.#instances;
  }
  get(instanceID: string): SimInstance | undefined {
    return this.#byId.get(instanceID);
  }

  /** Advances the clock; returns the new time. */
  tick(ms = HOUR_MS): number {
    this.#now += ms;
    return this.#now;
  }

  /** The last operation of `kind` fails (a new one is started and fails). */
  fail(instanceID: string, kind: "provision" | "update" | "upgrade" | "deprovision" = "update"): FleetChange {
    const i = this.#require(instanceID);
    const type = kind === "upgrade" ? "upgradeCluster" : kind;
    this.#writer(i).add(type, "failed", this.tick(), { fail: this.#rng.int(0, 4) });
    return this.#changed({ kind: "fail", instanceID, detail: `${kind} failed` });
  }

  /** An operator fixes the runtime: a new update succeeds (which clears `error` and `failed`). */
  recover(instanceID: string): FleetChange {
    const i = this.#require(instanceID);
    if (i.deletedAt !== undefined) return this.delete(instanceID);
    this.#writer(i).add("update", "succeeded", this.tick());
    return this.#changed({ kind: "recover", instanceID, detail: "update succeeded" });
  }

  /** KEB's trial/free cleanup expires the runtime: `expiredAt` set and a suspension that succeeds. */
  expire(instanceID: string): FleetChange {
    const i = this.#require(instanceID);
    const at = this.tick();
    i.expiredAt = goTime(at - 1000, this.#rng.int(0, 999));
    i.active = false;
    i.runtimeID = "";
    this.#writer(i).add("deprovision", "succeeded", at, { temporary: true });
    return this.#changed({ kind: "expire", instanceID, detail: "expired and suspended" });
  }

  /** Deprovisioning completes: the row moves to the archive and leaves every default listing. */
  delete(instanceID: string): FleetChange {
    const i = this.#require(instanceID);
    const at = this.tick();
    const provision = i.operations.find((o) => o.type === "provision");
    this.#archived.push({
      instanceID: i.instanceID,
      lastRuntimeID: i.runtimeID,
      globalAccountID: i.globalAccountID,
      subAccountID: i.subAccountID,
      subAccountRegion: i.subAccountRegion,
      region: i.region,
      shootName: i.shootName,
      servicePlanID: i.servicePlanID,
      servicePlanName: i.servicePlanName,
      provider: i.provider,
      createdAt: i.createdAt,
      provisioningStartedAt: provision?.createdAt ?? i.createdAt,
      provisioningFinishedAt: provision?.updatedAt ?? i.createdAt,
      lastDeprovisioningFinishedAt: goTime(at, this.#rng.int(0, 999)),
    });
    this.#instances = this.#instances.filter((x) => x !== i);
    this.#byId.delete(instanceID);
    return this.#changed({ kind: "delete", instanceID, detail: "deprovisioned and archived" });
  }

  /** New runtimes are provisioned now (so they sort last, as in KEB). */
  create(count = 1): FleetChange[] {
    const changes: FleetChange[] = [];
    const account = this.#instances[0]?.globalAccountID ?? this.#rng.uuid();
    for (let n = 0; n < count; n++) {
      const at = this.tick(60_000);
      const i = buildInstance(this.#rng, "running", at, at, account);
      this.#instances.push(i);
      this.#byId.set(i.instanceID, i);
      changes.push(
        this.#changed({
          kind: "create",
          instanceID: i.instanceID,
          detail: `${i.servicePlanName} provisioned`,
        }),
      );
    }
    return changes;
  }

  /**
   * Random changes between audit runs: healthy runtimes fail, failing ones recover, trial/free
   * runtimes expire, some are deleted, new ones appear. Deterministic for the fleet's seed.
   */
  mutate(plan: MutationPlan): FleetChange[] {
    const changes: FleetChange[] = [];
    const pickWhere = (pred: (i: SimInstance) => boolean, count: number): SimInstance[] => {
      const pool = this.#instances.filter(pred);
      const picked = new Set<SimInstance>();
      while (picked.size < Math.min(count, pool.length)) picked.add(this.#rng.pick(pool));
      return [...picked];
    };
    const failing = (i: SimInstance): boolean =>
      i.operations.some((o) => o.state === "failed") && i.operations.at(-1)?.state === "failed";
    for (const i of pickWhere((x) => !failing(x) && x.active && !x.deletedAt, plan.fail ?? 0)) {
      changes.push(this.fail(i.instanceID, this.#rng.pick(["update", "upgrade", "update"] as const)));
    }
    for (const i of pickWhere(failing, plan.recover ?? 0)) changes.push(this.recover(i.instanceID));
    const expirable = (i: SimInstance): boolean =>
      (i.servicePlanName === "trial" || i.servicePlanName === "free") &&
      i.expiredAt === undefined &&
      i.active;
    for (const i of pickWhere(expirable, plan.expire ?? 0)) changes.push(this.expire(i.instanceID));
    for (const i of pickWhere(() => true, plan.delete ?? 0)) changes.push(this.delete(i.instanceID));
    changes.push(...this.create(plan.create ?? 0));
    return changes;
  }

  #writer(i: SimInstance): OperationWriter {
    return new OperationWriter(this.#rng, i);
  }
  #require(instanceID: string): SimInstance {
    const i = this.#byId.get(instanceID);
    if (!i) throw new RangeError(`no runtime ${instanceID} in the simulated fleet`);
    return i;
  }
  #changed(change: FleetChange): FleetChange {
    this.#version++;
    return change;
  }
}
