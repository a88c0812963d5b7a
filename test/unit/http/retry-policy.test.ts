import { retryAfterMs, retryDelayMs } from "@fleet-auditor/http";
import { describe, expect, it } from "vitest";

describe("retryDelayMs", () => {
  it("doubles the backoff per retry with equal jitter, capped", () => {
    const at = (retry: number, random: number) =>
      retryDelayMs(retry, undefined, { baseDelayMs: 100, maxDelayMs: 350, random: () => random });
    expect([at(1, 0), at(1, 0.999)]).toEqual([50, expect.closeTo(99.95, 2)]);
    expect(at(2, 0)).toBe(100);
    expect(at(3, 0.5)).toBe(262.5); // 350 capped: 175 + 0.5 * 175
  });

  it("waits at least what Retry-After asks", () => {
    expect(retryDelayMs(1, "2", { random: () => 0 })).toBe(2000);
    expect(retryDelayMs(1, "0", { random: () => 0 })).toBe(125);
  });

  it("has no delay once the retries are spent", () => {
    expect(retryDelayMs(3, undefined, { maxRetries: 2 })).toBeUndefined();
    expect(retryDelayMs(2, undefined, { maxRetries: 2 })).toBeTypeOf("number");
  });
});

describe("retryAfterMs", () => {
  it("reads seconds and HTTP dates, and nothing else", () => {
    expect(retryAfterMs("3")).toBe(3000);
    expect(retryAfterMs(new Date(Date.now() + 60_000).toUTCString())).toBeGreaterThan(58_000);
    expect(retryAfterMs("soon")).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});
