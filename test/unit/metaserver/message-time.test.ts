import {
  isoTime,
  MAX_FUTURE_SKEW_MS,
  MetaserverParseError,
  refuseFutureTime,
} from "@fleet-auditor/metaserver";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const T = Date.UTC(2026, 10, 30, 12, 0);

describe("isoTime", () => {
  it("writes a time as ISO 8601 and clamps one outside the four-digit years to the nearest of them", () => {
    expect(isoTime(T)).toBe("2026-11-30T12:00:00.000Z");
    expect(isoTime(9_000_000_000_000_000)).toBe("9999-12-31T23:59:59.999Z");
    expect(isoTime(10n ** 20n)).toBe("9999-12-31T23:59:59.999Z");
    expect(isoTime(-9_000_000_000_000_000)).toBe("0000-01-01T00:00:00.000Z");
    for (const absent of [undefined, null, "soon", Number.NaN, {}])
      expect(isoTime(absent)).toBe("0000-01-01T00:00:00.000Z");
  });

  it("never throws, and what it writes parses back and sorts as the times do (property)", () => {
    fc.assert(
      fc.property(fc.double(), fc.double(), (a, b) => {
        const [x, y] = [isoTime(a), isoTime(b)];
        expect(Number.isNaN(Date.parse(x))).toBe(false);
        if (!Number.isNaN(a) && !Number.isNaN(b) && a < b) expect(x <= y).toBe(true);
      }),
    );
  });
});

describe("refuseFutureTime", () => {
  it("accepts any past time and a clock up to five minutes ahead of the receipt", () => {
    expect(MAX_FUTURE_SKEW_MS).toBe(5 * 60_000);
    for (const t of [0, T - 365 * 86_400_000, T, T + MAX_FUTURE_SKEW_MS])
      expect(() => refuseFutureTime(t, T)).not.toThrow();
  });

  it("refuses a time further ahead as MS_FUTURE_TIMESTAMP, naming both times", () => {
    let err: unknown;
    try {
      refuseFutureTime(T + MAX_FUTURE_SKEW_MS + 1, T);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MetaserverParseError);
    expect(err).toMatchObject({
      code: "MS_FUTURE_TIMESTAMP",
      message: `header.timestamp ${T + MAX_FUTURE_SKEW_MS + 1} (2026-11-30T12:05:00.001Z) is 5 minute(s) after SQS received the message (2026-11-30T12:00:00.000Z); at most 5 minute(s) of clock skew are accepted`,
    });
    expect(() => refuseFutureTime(9_000_000_000_000_000, T)).toThrow(/\(past the year 9999\)/);
  });
});
