import { toYaml } from "@fleet-auditor/cli";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

// `-o yaml` prints the data `-o json` prints: whatever a string holds, a YAML reader (1.2, and 1.1
// as PyYAML and go-yaml v2 read) gets the same JSON value back.

const readBoth = (text: string): [unknown, unknown] => [
  parse(text, { version: "1.2", uniqueKeys: true }),
  parse(text, { version: "1.1", uniqueKeys: true }),
];

/** Terminal controls `-o json` escapes too; none may stand raw in a line of the output. */
const ACTIVE = /[\p{Cc}\p{Zl}\p{Zp}\p{Bidi_Control}]/u;

const TRICKY = [
  "",
  " ",
  " leading",
  "trailing ",
  "true",
  "False",
  "yes",
  "No",
  "on",
  "OFF",
  "y",
  "n",
  "null",
  "Null",
  "~",
  "-",
  "- item",
  "? key",
  ": value",
  "a: b",
  "a #comment",
  "#comment",
  "&anchor",
  "*alias",
  "!tag",
  "!!str",
  "|",
  ">",
  "%YAML",
  "@at",
  "`tick",
  "'single'",
  '"double"',
  "{a: 1}",
  "[1, 2]",
  "<<",
  "=",
  "0",
  "007",
  "0x1F",
  "0o17",
  "1e3",
  "1_000",
  "1:20",
  "-1",
  "+1",
  ".5",
  ".inf",
  "-.Inf",
  ".nan",
  "2026-11-29",
  "2026-11-29T06:00:00Z",
  "line\nbreak",
  "cr\r\nlf",
  "tab\there",
  "\u001b[2Jclear",
  "bidi\u202eevil",
  "sep\u2028line",
  "c1\u0085\u009b",
  "del\u007f",
  "bom\ufeff",
  "nonchar\uffff",
  "emoji 🦊",
  "ümlaut",
  "back\\slash",
  "state=failed&state=error",
  "e2e",
  "failing",
  "a/b.c-d_e",
];

describe("toYaml: the JSON data as YAML", () => {
  it("reads back every tricky string as the same string, as a value and as a key", () => {
    for (const s of TRICKY) {
      const value = { [s]: s, list: [s, { [s]: [s] }] };
      const text = toYaml(value);
      for (const read of readBoth(text)) expect(read, JSON.stringify(s)).toEqual(value);
      for (const line of text.split("\n")) expect(line, JSON.stringify(s)).not.toMatch(ACTIVE);
    }
  });

  it("writes block mappings and sequences, with plain words left unquoted", () => {
    expect(
      toYaml({
        audit: "failing",
        flagged: 3,
        complete: true,
        reason: null,
        filters: { plans: ["aws", "trial"] },
      }),
    ).toBe(
      "audit: failing\nflagged: 3\ncomplete: true\nreason: null\nfilters:\n  plans:\n    - aws\n    - trial\n",
    );
    expect(toYaml([{ a: 1, b: [] }, [1, [2]], {}])).toBe("- a: 1\n  b: []\n- - 1\n  - - 2\n- {}\n");
    expect(toYaml({ at: new Date("2026-11-29T06:00:00Z"), gone: undefined })).toBe(
      'at: "2026-11-29T06:00:00.000Z"\n',
    );
  });

  it("reads back any JSON value as JSON.stringify gives it", () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: "binary" }), (value) => {
        const expected = JSON.parse(JSON.stringify(value));
        for (const read of readBoth(toYaml(value))) expect(read).toEqual(expected);
      }),
      { numRuns: Number(process.env.FLEET_AUDITOR_PROPERTY_RUNS ?? 300) },
    );
    // A hang guard, not a bar: about 5 s alone, it passed 20 s beside the other unit files on a
    // loaded 2-core machine.
  }, 60_000);
});
