import {
  KebConfigError,
  KebIncompleteError,
  requireComplete,
  scanAll,
  scanRuntimes,
} from "@fleet-auditor/keb";
import { Fleet, generateFleet } from "@fleet-auditor/keb-kubeedge-sim";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useKebSimulator } from "../../helpers/keb.ts";

// 1,050 runtimes: 11 pages of 100, the last one holding 50.
const kit = useKebSimulator({ fleet: new Fleet([]), latencyMs: 0 });
beforeEach(() => {
  kit.sim.faults.clear();
  kit.sim.stats.maxInFlight = 0;
});
afterEach(() => kit.sim.faults.clear());

// A fresh fleet per test, swapped into the running simulator.
function reseed(size = 1050, flagged = 120): void {
  kit.sim.fleet.reset(generateFleet({ size, seed: 5, flagged }));
}
const allIds = () => kit.sim.fleet.all().map((i) => i.instanceID);

describe("scanRuntimes", () => {
  it("lists every page of a query, each runtime once, in KEB's order", async () => {
    reseed();
    const result = await scanRuntimes(kit.client(), { states: ["all"] });
    expect(result).toMatchObject({
      query: "state=all",
      pages: 11,
      totalCount: 1050,
      listed: 1050,
      complete: true,
    });
    expect(result.incompleteReason).toBeNull();
    expect(result.runtimes.map((r) => r.instanceID)).toEqual(allIds());
  });

  it("keeps at most `concurrency` pages in flight", async () => {
    reseed();
    // Long enough that a loaded machine still fills every slot before the first answer.
    kit.sim.faults.latencyMs = 80;
    await scanRuntimes(kit.client(), { states: ["all"] }, { concurrency: 3 });
    expect(kit.sim.stats.maxInFlight).toBe(3);
    kit.sim.stats.maxInFlight = 0;
    await scanRuntimes(kit.client(), { states: ["all"] }, { concurrency: 1 });
    expect(kit.sim.stats.maxInFlight).toBe(1);
  });

  it("shares one limit between the queries of scanAll", async () => {
    reseed();
    kit.sim.faults.latencyMs = 80;
    const [a, b] = await scanAll(kit.client(), [{ states: ["all"] }, { states: ["all"], plans: ["trial"] }], {
      concurrency: 4,
    });
    expect(kit.sim.stats.maxInFlight).toBe(4);
    expect(a?.complete && b?.complete).toBe(true);
    expect(b?.runtimes.length).toBeGreaterThan(0);
    expect(b?.runtimes.every((r) => r.servicePlanName === "trial")).toBe(true);
  });

  it("reports progress summed over the queries of scanAll", async () => {
    reseed();
    const seen: Array<[number, number]> = [];
    const [a, b] = await scanAll(kit.client(), [{ states: ["all"] }, { states: ["all"], plans: ["trial"] }], {
      onProgress: (done, total) => seen.push([done, total]),
    });
    const pages = (a?.pages ?? 0) + (b?.pages ?? 0);
    expect(seen.at(-1)).toEqual([pages, pages]);
    expect(seen.every(([d, t]) => d <= t)).toBe(true);
  });

  it("finishes at once on an empty result", async () => {
    reseed();
    const result = await scanRuntimes(kit.client(), { plans: ["no-such-plan"] });
    expect(result).toMatchObject({ pages: 1, totalCount: 0, listed: 0, complete: true });
  });

  it("classifies nothing by itself: the failing queries return failed, error and deprovisionincomplete runtimes", async () => {
    reseed();
    const [fe, di] = await scanAll(kit.client(), [
      { states: ["failed", "error"] },
      { states: ["deprovisionincomplete"] },
    ]);
    expect(new Set(fe?.runtimes.map((r) => r.status.state))).toEqual(new Set(["failed", "error"]));
    expect(new Set(di?.runtimes.map((r) => r.status.state))).toEqual(new Set(["deprovisionincomplete"]));
  });

  it("reports a page that failed after its retries as incomplete, keeping what arrived", async () => {
    reseed();
    kit.sim.faults.add({
      page: 6,
      times: Number.POSITIVE_INFINITY,
      action: { kind: "status", status: 500, json: true, body: "boom" },
    });
    const result = await scanRuntimes(kit.client(), { states: ["all"] });
    expect(result.complete).toBe(false);
    expect(result.incompleteReason).toMatch(/^page 6 failed: .*HTTP 500: boom/);
    expect(result.error).toMatchObject({ code: "KEB_HTTP", status: 500 });
    expect(result.listed).toBeGreaterThan(0);
    expect(result.listed).toBeLessThan(1050);
    expect(() => requireComplete(result)).toThrow(KebIncompleteError);
  });

  it("reports an empty page before totalCount as incomplete", async () => {
    reseed();
    kit.sim.faults.add({ page: 4, action: { kind: "empty" } });
    const result = await scanRuntimes(kit.client(), { states: ["all"] }, { concurrency: 1 });
    expect(result).toMatchObject({
      complete: false,
      incompleteReason: "page 4 was empty before totalCount 1050 was reached",
    });
  });

  it("reports page 1 empty with a positive totalCount as incomplete", async () => {
    reseed();
    kit.sim.faults.add({ page: 1, action: { kind: "empty" } });
    const result = await scanRuntimes(kit.client(), { states: ["all"] });
    expect(result).toMatchObject({
      complete: false,
      incompleteReason: "page 1 was empty but totalCount is 1050",
    });
  });

  it("reports totalCount drift when rows are deleted while it pages (they would be skipped)", async () => {
    reseed();
    kit.sim.faults.add({ page: 5, action: { kind: "shift", deleteBefore: 3, create: 0 } });
    const result = await scanRuntimes(kit.client(), { states: ["all"] }, { concurrency: 1 });
    expect(result).toMatchObject({
      complete: false,
      incompleteReason: "totalCount changed from 1050 to 1047 at page 5",
    });
  });

  it("reports totalCount drift when rows are inserted while it pages", async () => {
    reseed();
    kit.sim.faults.add({ page: 3, action: { kind: "shift", deleteBefore: 0, create: 2 } });
    const result = await scanRuntimes(kit.client(), { states: ["all"] }, { concurrency: 1 });
    expect(result.incompleteReason).toBe("totalCount changed from 1050 to 1052 at page 3");
  });

  it("reports a runtime seen on two pages (tied createdAt shifted the window) as incomplete", async () => {
    reseed();
    kit.sim.faults.add({ page: 7, action: { kind: "overlap" } });
    const result = await scanRuntimes(kit.client(), { states: ["all"] }, { concurrency: 1 });
    expect(result.complete).toBe(false);
    expect(result.incompleteReason).toMatch(/^1 runtime appeared on two pages/);
    expect(result.listed).toBe(1049);
  });

  it("reports a page with an item that breaks the schema as incomplete, naming it", async () => {
    reseed();
    kit.sim.faults.add({ page: 2, action: { kind: "schema-invalid" } });
    const result = await scanRuntimes(kit.client(), { states: ["all"] });
    expect(result.complete).toBe(false);
    expect(result.error).toMatchObject({ code: "KEB_SCHEMA", path: "$.data[0].status.createdAt" });
  });

  it("refuses to page past the hard cap", async () => {
    reseed();
    const result = await scanRuntimes(kit.client(), { states: ["all"] }, { maxPages: 5 });
    expect(result).toMatchObject({
      complete: false,
      incompleteReason: "11 pages exceed the cap of 5",
      pages: 5,
    });
  });

  it("refuses state=deprovisioned without instance IDs, whose pages KEB cannot order", async () => {
    await expect(scanRuntimes(kit.client(), { states: ["deprovisioned"] })).rejects.toThrow(KebConfigError);
  });

  it("reads deprovisioned runtimes by instance ID from the archive", async () => {
    reseed(50, 5);
    const victim = kit.sim.fleet.all()[0]?.instanceID as string;
    kit.sim.fleet.delete(victim);
    const result = await scanRuntimes(kit.client(), { states: ["deprovisioned"], instanceIDs: [victim] });
    expect(result.complete).toBe(true);
    expect(result.runtimes.map((r) => r.instanceID)).toEqual([victim]);
  });

  it("sees the fleet change between scans: fail, recover, expire, delete, create", async () => {
    reseed(300, 0);
    const failing = async () =>
      (
        await scanAll(kit.client(), [{ states: ["failed", "error"] }, { states: ["deprovisionincomplete"] }])
      ).flatMap((s) => s.runtimes.map((r) => r.instanceID));
    expect(await failing()).toEqual([]);
    const [a, b] = kit.sim.fleet.all().filter((i) => i.active && i.expiredAt === undefined);
    kit.sim.fleet.fail(a?.instanceID as string, "update");
    kit.sim.fleet.fail(b?.instanceID as string, "upgrade");
    expect((await failing()).sort()).toEqual([a?.instanceID, b?.instanceID].sort());
    kit.sim.fleet.recover(a?.instanceID as string);
    expect(await failing()).toEqual([b?.instanceID]);
    const trial = kit.sim.fleet.all().find((i) => i.servicePlanName === "trial" && i.active);
    kit.sim.fleet.expire(trial?.instanceID as string);
    const expired = await scanRuntimes(kit.client(), { expired: true, states: ["all"] });
    expect(expired.runtimes.map((r) => r.instanceID)).toContain(trial?.instanceID);
    kit.sim.fleet.delete(b?.instanceID as string);
    expect(await failing()).toEqual([]);
    const [created] = kit.sim.fleet.create(1);
    const everything = await scanRuntimes(kit.client(), { states: ["all"] });
    expect(everything.runtimes.at(-1)?.instanceID).toBe(created?.instanceID);
  });
});

describe("scanRuntimes streaming", () => {
  it("hands each page to onPage and keeps nothing with retain: false, still de-duplicating", async () => {
    kit.sim.fleet.reset(generateFleet({ size: 450, seed: 6, flagged: 40 }));
    const seen: string[] = [];
    const pagesSeen: number[] = [];
    const result = await scanRuntimes(
      kit.client(),
      { states: ["all"] },
      {
        retain: false,
        onPage: (runtimes, page) => {
          pagesSeen.push(page);
          seen.push(...runtimes.map((r) => r.instanceID));
        },
      },
    );
    expect(result).toMatchObject({ complete: true, listed: 450, runtimes: [] });
    expect(pagesSeen.sort()).toEqual([1, 2, 3, 4, 5]);
    expect(seen.sort()).toEqual(
      kit.sim.fleet
        .all()
        .map((i) => i.instanceID)
        .sort(),
    );
  });

  it("passes a runtime seen twice to onPage only once", async () => {
    kit.sim.fleet.reset(generateFleet({ size: 300, seed: 6, flagged: 40 }));
    kit.sim.faults.add({ page: 2, action: { kind: "overlap" } });
    const seen: string[] = [];
    const result = await scanRuntimes(
      kit.client(),
      { states: ["all"] },
      { retain: false, concurrency: 1, onPage: (rs) => seen.push(...rs.map((r) => r.instanceID)) },
    );
    expect(result.complete).toBe(false);
    expect(new Set(seen).size).toBe(seen.length);
  });
});
