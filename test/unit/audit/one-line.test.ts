import { oneLine } from "@fleet-auditor/audit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

// `oneLine` returns text that is already one line and short as it is, without flattening it: the
// shortcut must give what the flattening gives, whatever the characters.

/** The flattening alone, as `oneLine` did it before it had a shortcut. */
function flattened(text: string, max: number): string {
  const flat = text
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  const points = Array.from(flat);
  return points.length <= max ? flat : `${points.slice(0, max - 1).join("")}…`;
}

// Every kind of character the shortcut must notice: spaces, every other whitespace and line
// break, controls, separators, the BOM, astral characters (two UTF-16 units), lone surrogates.
const tricky = fc.constantFrom(
  " ",
  "  ",
  "\t",
  "\n",
  "\r\n",
  "\v",
  "\f",
  "\u0000",
  "\u0085",
  "\u00a0",
  "\u1680",
  "\u2003",
  "\u2028",
  "\u2029",
  "\u202f",
  "\u3000",
  "\ufeff",
  "😀",
  "\ud800",
  "é",
  "a",
  "b-c",
);
const text = fc
  .array(fc.oneof(tricky, fc.string({ maxLength: 4 })), { maxLength: 30 })
  .map((p) => p.join(""));

describe("oneLine", () => {
  it("gives what the flattening gives, for text of any characters and any cut", () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 40 }), (t, max) => {
        expect(oneLine(t, max)).toBe(flattened(t, max));
      }),
      { numRuns: Number(process.env.FLEET_AUDITOR_PROPERTY_RUNS ?? 2_000) },
    );
  });

  it("returns one-line text as it is and flattens the rest", () => {
    expect(oneLine("shoot-a1 in eu-west-1")).toBe("shoot-a1 in eu-west-1");
    expect(oneLine(" lead")).toBe("lead");
    expect(oneLine("two  spaces")).toBe("two spaces");
    expect(oneLine("no\u00a0break")).toBe("no break");
    expect(oneLine("line\u2028break")).toBe("line break");
  });

  it("cuts on a code point, counting an astral character once", () => {
    expect(oneLine("😀😀😀", 3)).toBe("😀😀😀");
    expect(oneLine("😀😀😀😀", 3)).toBe("😀😀…");
  });
});
