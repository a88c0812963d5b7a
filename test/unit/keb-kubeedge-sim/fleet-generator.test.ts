import { displayedState, RuntimeSchema } from "@fleet-auditor/keb";
import { Fleet, generateFleet, PLANS, renderRuntime } from "@fleet-auditor/keb-kubeedge-sim";
import { describe, expect, it } from "vitest";

const flaggedStates = new Set(["failed", "error", "deprovisionincomplete"]);
const isFlagged = (i: ReturnType<typeof generateFleet>[number]) =>
  i.expiredAt !== undefined ||
  flaggedStates.has(displayedState(RuntimeSchema.parse(renderRuntime(i, "all")).status));

describe("the seeded fleet generator", () => {
  it("gives the same fleet for the same seed and another for another seed", () => {
    expect(generateFleet({ size: 300, seed: 9 })).toEqual(generateFleet({ size: 300, seed: 9 }));
    expect(generateFleet({ size: 300, seed: 10 })[0]?.instanceID).not.toBe(
      generateFleet({ size: 300, seed: 9 })[0]?.instanceID,
    );
  });

  it("flags exactly the requested number of runtimes", () => {
    const fleet = generateFleet({ size: 2000, seed: 4, flagged: 137 });
    expect(fleet.filter(isFlagged)).toHaveLength(137);
  });

  it("splits the flagged into exactly the asked share of expired runtimes and failing ones", () => {
    const fleet = generateFleet({ size: 2000, seed: 4, flagged: 140, expiredShare: 2 / 7 });
    const flagged = fleet.filter(isFlagged);
    expect(flagged).toHaveLength(140);
    expect(flagged.filter((i) => i.expiredAt !== undefined)).toHaveLength(40);
  });

  it("builds runtimes that pass the client's schema, in createdAt order, with realistic plans and providers", () => {
    const fleet = generateFleet({ size: 1000, seed: 2 });
    const plans = new Set(fleet.map((i) => i.servicePlanName));
    expect(plans.size).toBeGreaterThanOrEqual(8);
    for (const i of fleet) {
      const plan = PLANS.find((p) => p.name === i.servicePlanName);
      expect(plan?.provider).toBe(i.provider);
      expect(() => RuntimeSchema.parse(renderRuntime(i, "all"))).not.toThrow();
      expect(() => RuntimeSchema.parse(renderRuntime(i, "last"))).not.toThrow();
    }
    const expired = fleet.filter((i) => i.expiredAt);
    expect(expired.length).toBeGreaterThan(0);
    expect(expired.every((i) => ["trial", "free"].includes(i.servicePlanName))).toBe(true);
  });

  // 100,000 under `npm run test:soak` (whose audit soak runs on such a fleet); 20,000 here.
  const BIG = process.env.FLEET_AUDITOR_SOAK === "1" ? 100_000 : 20_000;

  it(`scales from 10 to ${BIG} runtimes, each ID unique`, () => {
    expect(generateFleet({ size: 10, seed: 1 })).toHaveLength(10);
    const big = Fleet.generate({ size: BIG, seed: 1, flagged: BIG / 10 });
    expect(big.size).toBe(BIG);
    expect(new Set(big.all().map((i) => i.instanceID)).size).toBe(BIG);
  });

  it("mutates deterministically between runs", () => {
    const a = Fleet.generate({ size: 500, seed: 8 });
    const b = Fleet.generate({ size: 500, seed: 8 });
    const plan = { fail: 5, recover: 3, expire: 2, delete: 2, create: 4 };
    const changes = a.mutate(plan);
    expect(b.mutate(plan)).toEqual(changes);
    expect(changes.filter((c) => c.kind === "fail")).toHaveLength(5);
    expect(changes.filter((c) => c.kind === "create")).toHaveLength(4);
    expect(a.size).toBe(502);
    expect(a.archived).toHaveLength(2);
  });
});
