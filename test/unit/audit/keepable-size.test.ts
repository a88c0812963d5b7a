import { type Finding, keepable } from "@fleet-auditor/audit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { finding } from "../../helpers/findings.ts";

// `keepable` judges most findings' size by a bound from their strings' lengths and measures only
// those that may be near the snapshot item's 64,000 bytes: its verdict must be the one the JSON
// itself gives, whatever the characters.

const LIMIT = 64_000;
const tooLarge = (f: Finding): boolean => Buffer.byteLength(JSON.stringify(f)) > LIMIT;
const leftOutBySize = (f: Finding): boolean =>
  keepable([f]).leftOut.some((l) => l.reason.startsWith("cannot be stored: it is"));

/** A finding whose detail holds `parts`, on top of a KEB finding's own fields. */
const withDetail = (parts: unknown): Finding => ({ ...finding("a"), detail: { parts } });

// Characters whose JSON is 1 to 6 bytes: ASCII, escaped controls (`\u0001`), quotes and
// backslashes, two- and three-byte UTF-8, surrogate pairs and lone surrogates.
// Runs of one character each, so that sizes reach the limit and pass it.
const unit = fc.constantFrom("a", "\u0001", '"', "\\", "é", "€", "😀", "\ud800", "\n");
const text = fc
  .array(fc.tuple(unit, fc.integer({ min: 0, max: 3_000 })), { maxLength: 4 })
  .map((runs) => runs.map(([u, n]) => u.repeat(n)).join(""));
const value = fc.oneof(
  text,
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(text, { maxLength: 4 }),
  fc.dictionary(text, text, { maxKeys: 3 }),
);

describe("keepable: a finding's size", () => {
  it("leaves a finding out for its size exactly when its JSON is over 64,000 bytes, whatever its characters", () => {
    let over = 0;
    let under = 0;
    fc.assert(
      fc.property(fc.array(value, { maxLength: 12 }), (parts) => {
        const f = withDetail(parts);
        const expected = tooLarge(f);
        expected ? over++ : under++;
        expect(leftOutBySize(f)).toBe(expected);
      }),
      { numRuns: 300 },
    );
    // Both verdicts were reached, so the property says something about each.
    expect(over).toBeGreaterThan(0);
    expect(under).toBeGreaterThan(0);
  });

  it("measures a detail whose JSON comes from toJSON (a Date writes 26 bytes where it has no field)", () => {
    const dates = Array.from({ length: 3_000 }, () => new Date(Date.UTC(2026, 10, 1)));
    const f = withDetail(dates);
    expect(tooLarge(f)).toBe(true);
    expect(leftOutBySize(f)).toBe(true);
  });

  it("keeps findings as the KEB audits build them (every text bounded)", () => {
    const { findings, leftOut } = keepable([finding("a"), finding("b", "error")]);
    expect(findings.map((f) => f.key)).toEqual(["a", "b"]);
    expect(leftOut).toEqual([]);
  });
});
