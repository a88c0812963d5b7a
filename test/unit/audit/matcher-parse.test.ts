import { formatMatcher, type LabelMatcher, parseMatchers, SilenceMatcherError } from "@fleet-auditor/audit";
import fc from "fast-check";
import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";

type Row = [name: string, op: LabelMatcher["op"], value: string];
const m = ([name, op, value]: Row): LabelMatcher => ({ name, op, value });

// Alertmanager's own cases for its classic parser, `TestMatchers` in `pkg/labels/parse_test.go`
// (prometheus/alertmanager), with the matchers it expects. Their label names are all ones this
// product accepts too.
const ALERTMANAGER_VALID: Array<[input: string, want: Row[]]> = [
  ["{}", []],
  ["{foo='}", [["foo", "=", "'"]]],
  ["{foo=`}", [["foo", "=", "`"]]],
  [String.raw`{foo=\"}`, [["foo", "=", '"']]],
  ["{foo=bar}", [["foo", "=", "bar"]]],
  ['{foo="bar"}', [["foo", "=", "bar"]]],
  ["{foo=~bar.*}", [["foo", "=~", "bar.*"]]],
  ['{foo=~"bar.*"}', [["foo", "=~", "bar.*"]]],
  ["{foo!=bar}", [["foo", "!=", "bar"]]],
  ['{foo!="bar"}', [["foo", "!=", "bar"]]],
  ["{foo!~bar.*}", [["foo", "!~", "bar.*"]]],
  ['{foo!~"bar.*"}', [["foo", "!~", "bar.*"]]],
  [
    '{foo="bar", baz!="quux"}',
    [
      ["foo", "=", "bar"],
      ["baz", "!=", "quux"],
    ],
  ],
  [
    '{foo="bar",baz!~".*quux", derp="wat"}',
    [
      ["foo", "=", "bar"],
      ["baz", "!~", ".*quux"],
      ["derp", "=", "wat"],
    ],
  ],
  [
    '{foo="bar", instance=~"some-api.*"}',
    [
      ["foo", "=", "bar"],
      ["instance", "=~", "some-api.*"],
    ],
  ],
  ['{foo=""}', [["foo", "=", ""]]],
  [
    '{foo="bar,quux", job="job1"}',
    [
      ["foo", "=", "bar,quux"],
      ["job", "=", "job1"],
    ],
  ],
  [
    '{foo = "bar", dings != "bums", }',
    [
      ["foo", "=", "bar"],
      ["dings", "!=", "bums"],
    ],
  ],
  [
    "foo=bar,dings!=bums",
    [
      ["foo", "=", "bar"],
      ["dings", "!=", "bums"],
    ],
  ],
  [
    String.raw`{quote="She said: \"Hi, ladies! That's gender-neutral…\""}`,
    [["quote", "=", `She said: "Hi, ladies! That's gender-neutral…"`]],
  ],
  ['statuscode=~"5.."', [["statuscode", "=~", "5.."]]],
  ["tricky=~~~", [["tricky", "=~", "~~"]]],
  [String.raw`trickier==\\=\=\"`, [["trickier", "=", String.raw`=\=\="`]]],
  [
    String.raw`contains_quote != "\"" , contains_comma !~ "foo,bar" , `,
    [
      ["contains_quote", "!=", '"'],
      ["contains_comma", "!~", "foo,bar"],
    ],
  ],
  ["{foo=bar}}", [["foo", "=", "bar}"]]],
  ["{foo=bar}},}", [["foo", "=", "bar}}"]]],
  [
    "{foo=,bar=}}",
    [
      ["foo", "=", ""],
      ["bar", "=", "}"],
    ],
  ],
  [String.raw`{foo=bar\t}`, [["foo", "=", String.raw`bar\t`]]],
  [String.raw`{foo=bar\n}`, [["foo", "=", "bar\n"]]],
  [String.raw`{foo=bar\}`, [["foo", "=", "bar\\"]]],
  [String.raw`{foo=bar\\}`, [["foo", "=", "bar\\"]]],
  [String.raw`{foo=bar\"}`, [["foo", "=", 'bar"']]],
  ["job=", [["job", "=", ""]]],
  ["{foo=", [["foo", "=", ""]]],
  ["{foo=}b", [["foo", "=", "}b"]]],
];

// The same file's refusals, each with the problem this product names.
const ALERTMANAGER_INVALID: Array<[input: string, problem: RegExp]> = [
  [",", /expected NAME=VALUE/],
  ["{,}", /expected NAME=VALUE/],
  ['job="value', /double quote/],
  ['job=value"', /double quote/],
  [String.raw`trickier==\\=\=\""`, /double quote/],
  ['contains_unescaped_quote = foo"bar', /double quote/],
  ['{invalid-name = "valid label"}', /expected NAME=VALUE/],
  ['{foo=~"invalid[regexp"}', /not a regular expression RE2 accepts: .*missing closing \]/],
  // Double-escaped strings, as a shell or a YAML file may leave them.
  [String.raw`"{foo=\"bar"}`, /expected NAME=VALUE/],
  [String.raw`"foo=\"bar"`, /expected NAME=VALUE/],
  [String.raw`"foo=\"bar\""`, /expected NAME=VALUE/],
  [String.raw`"foo=\"bar\"`, /expected NAME=VALUE/],
  [String.raw`"{foo=\"bar\"}"`, /expected NAME=VALUE/],
  ['"foo="bar""', /expected NAME=VALUE/],
  ["{{foo=", /expected NAME=VALUE/],
];

describe("parseMatchers, on Alertmanager's own cases for its classic parser", () => {
  it.each(ALERTMANAGER_VALID)("reads %s", (input, want) => {
    expect(parseMatchers(input)).toEqual(want.map(m));
  });

  it.each(ALERTMANAGER_INVALID)("refuses %s, naming the problem", (input, problem) => {
    expect(() => parseMatchers(input)).toThrow(SilenceMatcherError);
    expect(() => parseMatchers(input)).toThrow(problem);
  });
});

describe("parseMatchers, where Alertmanager's two parsers differ", () => {
  // amtool and Alertmanager's configuration take the classic reading wherever both parsers read
  // an input (`matcher/compat/parse.go`); the UTF-8 parser's reading is in the comment.
  it.each<[string, Row[]]>([
    ["foo=bar baz", [["foo", "=", "bar baz"]]], // refused: a space ends an unquoted value
    [String.raw`foo="bar\tbaz"`, [["foo", "=", String.raw`bar\tbaz`]]], // a tab
    [String.raw`foo="\xf0\x9f\x99\x82"`, [["foo", "=", String.raw`\xf0\x9f\x99\x82`]]], // 🙂
    [String.raw`foo=!bar\n`, [["foo", "=", "!bar\n"]]], // refused (`matcher/compat/parse_test.go`)
    ["{foo=bar}}", [["foo", "=", "bar}"]]], // refused: a brace too many
    ["{foo=bar} ", [["foo", "=", "bar}"]]], // "bar": the brace closes the list
  ])("reads %s as the classic parser does", (input, want) => {
    expect(parseMatchers(input)).toEqual(want.map(m));
  });

  it("refuses what only the UTF-8 parser reads: a quoted value with a space after the brace", () => {
    expect(() => parseMatchers('{foo="bar"} ')).toThrow(/double quote/);
  });
});

describe("parseMatchers, as operators type matchers", () => {
  it("reads a value bare or in double quotes, with spaces around the operator", () => {
    const want = [{ name: "reason", op: "=", value: "err_x" }];
    for (const text of ["reason=err_x", 'reason="err_x"', "reason = err_x", ' reason = "err_x" '])
      expect(parseMatchers(text), text).toEqual(want);
  });

  it("reads Go's escapes inside double quotes: a quote, a backslash and a line break", () => {
    expect(parseMatchers(String.raw`reason="say \"hi\""`)).toEqual([m(["reason", "=", 'say "hi"'])]);
    expect(parseMatchers(String.raw`reason=~"err\\.x"`)).toEqual([m(["reason", "=~", String.raw`err\.x`])]);
    expect(parseMatchers(String.raw`reason="a\nb"`)).toEqual([m(["reason", "=", "a\nb"])]);
  });

  it("reads a braced list into several matchers, a trailing comma and white space allowed", () => {
    expect(parseMatchers('{reason=~"err_.*", region="eu-west-1"}')).toEqual([
      m(["reason", "=~", "err_.*"]),
      m(["region", "=", "eu-west-1"]),
    ]);
    expect(parseMatchers('{ reason=~"err_.*" ,\n  region = "eu-west-1", }')).toEqual([
      m(["reason", "=~", "err_.*"]),
      m(["region", "=", "eu-west-1"]),
    ]);
    expect(parseMatchers("")).toEqual([]);
  });

  it("refuses a label name other than lowercase letters, digits and _", () => {
    expect(() => parseMatchers("Region=x")).toThrow(/label name/);
    expect(() => parseMatchers("region:x=y")).toThrow(/label name/);
    expect(() => parseMatchers('{region="x", Plan="y"}')).toThrow(/matcher "Plan=\\"y\\"": a label name/);
  });

  it("says how to quote a comma when a list's part is no matcher", () => {
    expect(() => parseMatchers("reason=quota, try later")).toThrow(
      /matcher "try later": expected NAME=VALUE.*a value that holds a comma is written in double quotes/,
    );
    expect(parseMatchers('reason="quota, try later"')).toEqual([m(["reason", "=", "quota, try later"])]);
  });

  it("keeps the limits on regular expressions, quoted or not", () => {
    expect(() => parseMatchers("reason=~(")).toThrow(/RE2/);
    expect(() => parseMatchers('reason=~"(?<=x)y"')).toThrow(/RE2/);
    expect(() => parseMatchers(`reason=~"${"a".repeat(1_001)}"`)).toThrow(/at most 1000/);
    expect(parseMatchers(`reason=~"${"a".repeat(1_000)}"`)).toHaveLength(1);
  });

  it("refuses a value that is not valid UTF-8", () => {
    expect(() => parseMatchers('reason="a\ud800"')).toThrow(/not valid UTF-8/);
  });
});

describe("formatMatcher", () => {
  it("leaves a plain value bare and quotes one with what a parser would read otherwise", () => {
    expect(formatMatcher(m(["reason", "=~", "err_keb_.*"]))).toBe("reason=~err_keb_.*");
    expect(formatMatcher(m(["region", "=~", ".+"]))).toBe("region=~.+");
    expect(formatMatcher(m(["reason", "=", "403 Forbidden"]))).toBe('reason="403 Forbidden"');
    expect(formatMatcher(m(["reason", "=", 'quota "m5", {eu}']))).toBe(
      String.raw`reason="quota \"m5\", {eu}"`,
    );
    expect(formatMatcher(m(["reason", "=~", String.raw`err\.x`]))).toBe(String.raw`reason=~"err\\.x"`);
    expect(formatMatcher(m(["reason", "=", "~x"]))).toBe('reason="~x"');
    expect(formatMatcher(m(["reason", "=~", ""]))).toBe('reason=~""');
  });

  // Values from the whole of Unicode, weighted towards what the parser treats specially.
  const special = fc.constantFrom(..." \t\n\r\v\u00a0\u0085,{}\"\\'`=~!n");
  const value = fc
    .array(fc.oneof(special, fc.string({ unit: "binary", maxLength: 1 })), { maxLength: 24 })
    .map((parts) => parts.join(""));
  const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/);
  const compiles = (v: string): boolean => {
    try {
      RE2JS.compile(`^(?:${v})$`);
      return v.length <= 1_000;
    } catch {
      return false;
    }
  };
  const matcher = fc.oneof(
    fc.record({ name, op: fc.constantFrom("=" as const, "!=" as const), value }),
    fc.record({ name, op: fc.constantFrom("=~" as const, "!~" as const), value: value.filter(compiles) }),
  );
  const runs = { numRuns: Number(process.env.FLEET_AUDITOR_PROPERTY_RUNS ?? 500) };

  it("prints what parseMatchers reads back to the same matcher, alone or in a braced list", () => {
    fc.assert(
      fc.property(matcher, (x) => {
        expect(parseMatchers(formatMatcher(x))).toEqual([x]);
      }),
      runs,
    );
    fc.assert(
      fc.property(fc.array(matcher, { minLength: 1, maxLength: 4 }), (xs) => {
        expect(parseMatchers(`{${xs.map(formatMatcher).join(", ")}}`)).toEqual(xs);
      }),
      runs,
    );
  });
});
