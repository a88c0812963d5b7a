import { type ScanResult, scanAll, scanRuntimes } from "@fleet-auditor/keb";
import { Fleet, generateFleet } from "@fleet-auditor/keb-kubeedge-sim";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useKebSimulator } from "../../helpers/keb.ts";

// A page whose body was not JSON frees its slot once the body has arrived and takes one again to
// be asked for again. These hold that page, as a hostile or odd KEB answers it, to the limit of
// requests in flight, the run's deadline and the request's own time limit.

// 1,050 runtimes: 11 pages of 100, the last one holding 50.
const kit = useKebSimulator({ fleet: new Fleet([]), latencyMs: 0 });
beforeEach(() => {
  kit.sim.faults.clear();
  kit.sim.faults.latencyMs = 0;
  kit.sim.fleet.reset(generateFleet({ size: 1050, seed: 5, flagged: 120 }));
  kit.sim.stats.maxInFlight = 0;
  kit.sim.faults.taken = 0;
});
afterEach(() => kit.sim.faults.clear());

/** The scan listed every runtime once, complete, with `limit` requests in flight at most and at once. */
function expectWhole(result: ScanResult, limit: number): void {
  expect(result.incompleteReason).toBeNull();
  expect(result.listed).toBe(1050);
  expect(kit.sim.stats.maxInFlight).toBe(limit);
}

describe("a page asked for again after a body that was not JSON", () => {
  it("counts against the limit again: it waits for a slot", async () => {
    kit.sim.faults.latencyMs = 80;
    // The slot is freed once a body has arrived, before it is decoded: the page that must be
    // asked for again takes one again, or three would be in flight.
    kit.sim.faults.add({ action: { kind: "invalid-json" }, page: 2 });
    const result = await scanRuntimes(kit.client(), { states: ["all"] }, { concurrency: 2 });
    expect(kit.sim.faults.taken).toBe(1);
    expectWhole(result, 2);
  });

  it("is not timed out by the pages queued behind it for a slot", async () => {
    kit.sim.faults.latencyMs = 150;
    kit.sim.faults.add({ action: { kind: "invalid-json" }, page: 2 });
    // Pages 3 to 11 wait for the one slot while page 2 is in flight. Asked for again at the back
    // of that queue, page 2 would wait for all nine (~1.35 s) on its own request's clock.
    const result = await scanRuntimes(
      kit.client({ requestTimeoutMs: 1000 }),
      { states: ["all"] },
      { concurrency: 1 },
    );
    expect(kit.sim.faults.taken).toBe(1);
    expectWhole(result, 1);
  });

  it("ends with the run's deadline when it passes while the page waits for a slot", async () => {
    kit.sim.faults.latencyMs = 200;
    kit.sim.faults.add({ action: { kind: "invalid-json" }, page: 2, times: 3 });
    const started = performance.now();
    const result = await scanRuntimes(
      kit.client(),
      { states: ["all"] },
      { concurrency: 1, signal: AbortSignal.timeout(500) },
    );
    expect(performance.now() - started).toBeLessThan(2500);
    expect(result.complete).toBe(false);
    expect(result.error?.code).toBe("KEB_DEADLINE");
    expect(kit.sim.stats.maxInFlight).toBe(1);
  });

  it("keeps a speculative page asked for again within the limit", async () => {
    kit.sim.faults.latencyMs = 80;
    kit.sim.faults.add(
      { action: { kind: "invalid-json" }, page: 2 },
      { action: { kind: "invalid-json" }, page: 3 },
      { action: { kind: "invalid-json" }, page: 4 },
    );
    const result = await scanRuntimes(
      kit.client(),
      { states: ["all"] },
      { concurrency: 3, expectedTotal: 1050 },
    );
    expect(kit.sim.faults.taken).toBe(3);
    expectWhole(result, 3);
  });

  it("keeps the pages of two queries sharing slots within the limit when they are asked for again", async () => {
    kit.sim.faults.latencyMs = 60;
    kit.sim.faults.add({ action: { kind: "invalid-json" }, times: 6 });
    const results = await scanAll(
      kit.client({ bodyRetries: 6 }),
      [{ states: ["all"] }, { states: ["all"] }],
      {
        concurrency: 2,
      },
    );
    expect(kit.sim.faults.taken).toBe(6);
    expect(results.map((r) => r.incompleteReason)).toEqual([null, null]);
    expect(kit.sim.stats.maxInFlight).toBe(2);
  });
});
