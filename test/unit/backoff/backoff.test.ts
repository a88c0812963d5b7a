import { backoffMs } from "@fleet-auditor/backoff";
import { describe, expect, it } from "vitest";

describe("backoffMs", () => {
  it("doubles the wait per retry from baseMs, with equal jitter", () => {
    const at = (retry: number, random: number) => backoffMs(retry, { baseMs: 100, random: () => random });
    expect([at(1, 0), at(1, 0.5)]).toEqual([50, 75]);
    expect([at(2, 0), at(3, 0), at(4, 0)]).toEqual([100, 200, 400]);
  });

  it("caps the wait before the jitter", () => {
    expect(backoffMs(10, { baseMs: 100, capMs: 350, random: () => 0.5 })).toBe(262.5);
  });

  it("waits the whole exponential wait without jitter", () => {
    const waits = [1, 2, 3].map((retry) => backoffMs(retry, { baseMs: 200, jitter: "none" }));
    expect(waits).toEqual([200, 400, 800]);
  });

  it("stays within half and all of the exponential wait with Math.random", () => {
    for (let i = 0; i < 100; i++) {
      const wait = backoffMs(3, { baseMs: 100 });
      expect(wait).toBeGreaterThanOrEqual(200);
      expect(wait).toBeLessThan(400);
    }
  });
});
