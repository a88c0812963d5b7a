// A YAML emitter for JSON data rather than the `yaml` package: printing plain data needs block
// mappings, block sequences and scalars, about 50 lines, against 115 KB the package adds to the
// bundled CLI. Safety comes from quoting: a string is left plain only when it is made of the
// few characters no YAML 1.1 or 1.2 reader can take for anything but a string.

/** Plain (unquoted) only: a letter first, then letters, digits, `_`, `.`, `/`, `-`. */
const PLAIN = /^[A-Za-z_][A-Za-z0-9_./-]*$/;

/**
 * Plain words a reader may still take for something else: booleans and null as YAML 1.1 readers
 * (PyYAML, go-yaml v2) have them, in any case, and `E0`-like words, which a lenient 1.1 float
 * pattern (the `yaml` package's) reads as a number with no digits before the exponent.
 */
const KEYWORDS = /^(y|n|yes|no|on|off|true|false|null|e[-+]?\d.*)$/i;

/**
 * What may not stand raw in a double-quoted scalar (outside YAML's printable set) or what a
 * terminal acts on: C0 (JSON escapes those already), DEL, C1, line and paragraph separators,
 * bidi controls, the byte order mark and the two non-characters U+FFFE, U+FFFF.
 */
const ESCAPE = /[\u007f-\u009f\p{Zl}\p{Zp}\p{Bidi_Control}\ufeff\ufffe\uffff]/gu;

/** A string as YAML: plain when unmistakable, else double-quoted with JSON's escapes (valid YAML). */
function scalar(s: string): string {
  if (PLAIN.test(s) && !KEYWORDS.test(s)) return s;
  return JSON.stringify(s).replace(ESCAPE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function emit(value: unknown, indent: string): string {
  if (value === null || typeof value !== "object") {
    return typeof value === "string" ? scalar(value) : String(value);
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return value.map((item) => `\n${indent}- ${emit(item, inner).replace(/^\n\s*/, "")}`).join("");
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}";
  return entries
    .map(([key, item]) => {
      const body = emit(item, inner);
      return `\n${indent}${scalar(key)}:${body.startsWith("\n") ? body : ` ${body}`}`;
    })
    .join("");
}

/**
 * `value` as a YAML document of block mappings and sequences, reading back (YAML 1.2 or 1.1) as
 * the JSON value `JSON.stringify` makes of it: the same data `--output json` prints. Every
 * character a terminal acts on is escaped, as in the JSON output.
 *
 * @example toYaml({ audit: "failing", flagged: 3, filters: { plans: ["aws"] } })
 * // "audit: failing\nflagged: 3\nfilters:\n  plans:\n    - aws\n"
 */
export function toYaml(value: unknown): string {
  // Through JSON first: dates become strings, undefined and functions drop out, as in the JSON output.
  const data: unknown = JSON.parse(JSON.stringify(value) ?? "null");
  return `${emit(data, "").replace(/^\n/, "")}\n`;
}
