import { compareTimes, epochMillis, epochNanos, isZeroTime } from "@fleet-auditor/keb";
import { describe, expect, it } from "vitest";

describe("KEB times", () => {
  it("orders times by their full fraction, beyond milliseconds", () => {
    expect(compareTimes("2024-10-30T13:07:16.309896Z", "2024-10-30T13:07:16.3098961Z")).toBe(-1);
    expect(compareTimes("2024-10-30T13:07:16.5Z", "2024-10-30T13:07:16.500000000Z")).toBe(0);
    expect(compareTimes("2024-10-30T13:07:16Z", "2024-10-30T13:07:15.999999999Z")).toBe(1);
  });

  it("applies numeric offsets", () => {
    expect(compareTimes("2026-05-04T10:01:02+02:00", "2026-05-04T08:01:02Z")).toBe(0);
    expect(epochMillis("2026-05-04T03:01:02.25-05:00")).toBe(Date.UTC(2026, 4, 4, 8, 1, 2, 250));
  });

  it("reads Go's zero time as year 1, before every real time", () => {
    expect(isZeroTime("0001-01-01T00:00:00Z")).toBe(true);
    expect(isZeroTime("2020-01-01T00:00:00Z")).toBe(false);
    expect(compareTimes("0001-01-01T00:00:00Z", "1970-01-01T00:00:00Z")).toBe(-1);
    expect(epochNanos("0001-01-01T00:00:00Z")).toBe(-62135596800000n * 1_000_000n);
  });

  it("rejects what is not RFC 3339", () => {
    expect(() => epochNanos("yesterday")).toThrow(/not an RFC 3339 time/);
    expect(() => epochNanos("2024-10-30 13:07:16Z")).toThrow(RangeError);
  });
});
