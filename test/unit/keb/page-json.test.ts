import { parsePageJson } from "@fleet-auditor/keb";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

// parsePageJson parses a body in KEB's layout in pieces cut between runtimes: whatever the bytes,
// it must give what JSON.parse of the decoded text gives, or throw as it throws.

const utf8 = new TextDecoder();
const encode = (text: string) => new TextEncoder().encode(text);

type Outcome = { value: unknown } | { error: string };
const outcome = (parse: () => unknown): Outcome => {
  try {
    return { value: parse() };
  } catch (err) {
    // The message too: it quotes the position, which a piece parsed alone would get wrong.
    return { error: `${(err as Error).name}: ${(err as Error).message}` };
  }
};
const same = (bytes: Uint8Array, pieceBytes: number): void => {
  expect(outcome(() => parsePageJson(bytes, pieceBytes))).toEqual(
    outcome(() => JSON.parse(utf8.decode(bytes))),
  );
};

// Text that holds the marks the cuts look for, quotes, escapes and characters of 2 to 4 bytes.
const tricky = fc
  .array(
    fc.constantFrom('},{"instanceID":', '],"count":', "\\", '"', "é", "😀", "\u2028", "a", "}", "]", ","),
    { maxLength: 6 },
  )
  .map((parts) => parts.join(""));
const runtime: fc.Arbitrary<unknown> = fc.record({
  instanceID: fc.oneof(fc.uuid(), tricky),
  status: fc.record({ state: fc.oneof(fc.string(), tricky) }),
  // A nested runtime-shaped object: a cut there leaves pieces that do not parse.
  nested: fc.option(fc.array(fc.record({ instanceID: fc.string(), n: fc.integer() }), { maxLength: 3 })),
  extra: fc.option(fc.jsonValue({ maxDepth: 2 })),
});
const page = fc
  .record({ data: fc.array(runtime, { maxLength: 12 }), count: fc.nat(), totalCount: fc.nat() })
  .map((p) => encode(JSON.stringify(p)));

/** The bytes with a few of them changed, removed or repeated: mostly no longer JSON. */
const damaged = fc
  .tuple(
    page,
    fc.array(fc.tuple(fc.nat(), fc.constantFrom("flip", "drop", "twice"), fc.integer({ min: 0, max: 255 })), {
      minLength: 1,
      maxLength: 3,
    }),
  )
  .map(([bytes, edits]) => {
    const out = [...bytes];
    for (const [at, kind, byte] of edits) {
      const i = at % Math.max(1, out.length);
      if (kind === "flip") out[i] = byte;
      else if (kind === "drop") out.splice(i, 1);
      else out.splice(i, 0, out[i] ?? byte);
    }
    return Uint8Array.from(out);
  });

describe("parsePageJson", () => {
  it("gives JSON.parse's value for a page in KEB's layout, cut into pieces of any size", () => {
    fc.assert(
      fc.property(page, fc.integer({ min: 1, max: 400 }), (bytes, pieceBytes) => same(bytes, pieceBytes)),
      { numRuns: Number(process.env.FLEET_AUDITOR_PROPERTY_RUNS ?? 500) },
    );
  });

  it("gives JSON.parse's value or error for damaged bytes", () => {
    fc.assert(
      fc.property(damaged, fc.integer({ min: 1, max: 400 }), (bytes, pieceBytes) => same(bytes, pieceBytes)),
      { numRuns: Number(process.env.FLEET_AUDITOR_PROPERTY_RUNS ?? 800) },
    );
  });

  it("gives JSON.parse's value for duplicate keys, whitespace and another layout", () => {
    const bodies = [
      '{"data":[{"instanceID":"a"}],"count":1,"data":[{"instanceID":"b"}],"count":1,"totalCount":1}',
      '{"data":[{"instanceID":"a"},{"instanceID":"b"}],"count":2,"totalCount":2} ',
      '{"data": [{"instanceID":"a"},{"instanceID":"b"}],"count":2,"totalCount":2}',
      '{"count":2,"data":[{"instanceID":"a"},{"instanceID":"b"}],"totalCount":2}',
      '{"data":[{"instanceID":"a"},{"instanceID":"b"}],"count":02,"totalCount":2}',
      '\ufeff{"data":[{"instanceID":"a"},{"instanceID":"b"}],"count":2,"totalCount":2}',
      '{"data":[{"instanceID":"a"}],"count":1,"totalCount":1}],"count":1,"totalCount":1}',
      '{"data":[{"instanceID":"a","x":[{"instanceID":"n"},{"instanceID":"m"}]},{"instanceID":"b"}],"count":2,"totalCount":2}',
    ];
    for (const body of bodies) for (const pieceBytes of [1, 5, 20, 60]) same(encode(body), pieceBytes);
  });

  it("gives JSON.parse's value or error with a character inserted where a cut or the tail is", () => {
    // Characters a piece parsed alone could read otherwise than the whole: a BOM (a decoder
    // drops one that starts its input), a zero before a number, whitespace, a sign, an escape.
    const inserted = fc.constantFrom("\ufeff", "0", " ", "\n", "-", "\u00a0", "\\", "e1", ".0");
    fc.assert(
      fc.property(
        page,
        fc.nat(),
        inserted,
        fc.integer({ min: 1, max: 400 }),
        (bytes, at, text, pieceBytes) => {
          const body = utf8.decode(bytes);
          // Next to structure: after a bracket, brace, comma or colon.
          const marks = [...body.matchAll(/[[\]{},:]/g)].map((m) => (m.index ?? 0) + 1);
          const i = marks[at % marks.length] ?? 0;
          same(encode(body.slice(0, i) + text + body.slice(i)), pieceBytes);
        },
      ),
      { numRuns: Number(process.env.FLEET_AUDITOR_PROPERTY_RUNS ?? 800) },
    );
  });

  it("gives JSON.parse's error for a BOM after the opening bracket of data, or a count with a leading zero", () => {
    const items = Array.from(
      { length: 4 },
      (_, i) => `{"instanceID":"id-${i}","pad":"${"x".repeat(40)}"}`,
    ).join(",");
    const bodies = [
      `{"data":[\ufeff${items}],"count":4,"totalCount":4}`,
      `{"data":[${items}],"count":04,"totalCount":4}`,
      `{"data":[${items}],"count":4,"totalCount":00}`,
    ];
    for (const body of bodies) for (const pieceBytes of [1, 60, 100_000]) same(encode(body), pieceBytes);
  });

  it("parses a page of 100 runtimes (145 KB, more than V8 keeps as a small string)", () => {
    const data = Array.from({ length: 100 }, (_, i) => ({ instanceID: `id-${i}`, pad: "x".repeat(1_450) }));
    const bytes = encode(JSON.stringify({ data, count: 100, totalCount: 250 }));
    expect(bytes.length).toBeGreaterThan(131_072);
    expect(parsePageJson(bytes)).toEqual({ data, count: 100, totalCount: 250 });
  });
});
