import { RE2JS } from "re2js";
import { SilenceMatcherError } from "./errors.ts";
import { checkedMatcher, type LabelMatcher, type MatchOp } from "./matcher.ts";

// Text to matchers as Alertmanager reads it. Alertmanager has two parsers: the classic one
// (`pkg/labels/parse.go`), tolerant, and the newer UTF-8 one (`matcher/parse/`), strict. amtool
// and Alertmanager's configuration try both and, where both read an input and disagree, take the
// classic reading (`matcher/compat/parse.go`, fallback mode). This is the classic parser, ported
// rule for rule: the optional braces, the split at commas outside double quotes, the white space
// around the operator and the value, the escapes. Where the two differ the classic reading holds:
// `foo=bar baz` is "bar baz", `{foo=bar}}` is "bar}", `"a\tb"` keeps its backslash. Inputs only the
// UTF-8 parser reads (a quoted label name; `{foo="bar"} `, a space after the brace) are refused.
// One text is read as a list (`ParseMatchers`, as the configuration's `matchers:` are): `foo=a,b`
// is two matchers, where amtool's `silence add`, one matcher an argument, would read "a,b". Label
// names are this product's, stricter than Prometheus' (`checkedMatcher`).

/** `ParseMatcher`'s pattern, as it is: RE2's `\s` is `[\t\n\f\r ]`, and `(?s)` lets a value span lines. */
const MATCHER = RE2JS.compile(String.raw`^\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(=~|=|!=|!~)\s*((?s).*?)\s*$`);
// Go's `strings.TrimSpace` (`unicode.IsSpace`), which trims the last matcher of a list.
const GO_SPACE = "[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]+";
const TRIM = new RegExp(`^${GO_SPACE}|${GO_SPACE}$`, "g");
const LONE_SURROGATE = /\p{Cs}/u;

const FORMAT =
  "expected NAME=VALUE, NAME!=VALUE, NAME=~REGEX or NAME!~REGEX (the value may be double-quoted)";
const COMMA = 'a value that holds a comma is written in double quotes: reason="a, b"';
const QUOTE = 'a double quote inside a value is written \\" and the value put in double quotes';

/**
 * The matchers one text holds, as Alertmanager's `ParseMatchers` reads it: one matcher
 * (`reason=err_x`, `reason = "err x"`, `reason=~"err_.*"`) or several separated by commas,
 * optionally in braces, with an optional trailing comma (`{reason=~"err_.*", region="eu-1",}`).
 * A value may be double-quoted, inside which `\"`, `\\` and `\n` are a quote, a backslash and a
 * line break (any other backslash is itself) and commas do not separate; white space around the
 * name, the operator and the value is dropped. `{}` and "" hold no matcher. The one way from text
 * to matchers: the CLI's `--match`, and whatever else reads matchers typed by a person.
 *
 * Throws `SilenceMatcherError` naming the problem and the matcher: no operator, a bad label
 * name, a stray double quote, a regular expression RE2 refuses or too long.
 *
 * @example parseMatchers('{reason=~"err_.*", region="eu-west-1"}')
 * // [{ name: "reason", op: "=~", value: "err_.*" }, { name: "region", op: "=", value: "eu-west-1" }]
 */
export function parseMatchers(text: string): LabelMatcher[] {
  const pieces = split(text);
  return pieces.map((piece) => parseOne(piece, pieces.length > 1 ? `; ${COMMA}` : "", text));
}

/** `ParseMatchers`' split: braces trimmed once each, then commas outside unescaped double quotes. */
function split(text: string): string[] {
  let s = text.startsWith("{") ? text.slice(1) : text;
  s = s.endsWith("}") ? s.slice(0, -1) : s;
  const pieces: string[] = [];
  let insideQuotes = false;
  let escaped = false;
  let piece = "";
  for (const c of s) {
    if (c === "," && !insideQuotes) {
      // As in Go, a separating comma leaves `escaped` as it was.
      pieces.push(piece);
      piece = "";
      continue;
    }
    if (c === '"') {
      if (escaped) escaped = false;
      else insideQuotes = !insideQuotes;
    } else if (c === "\\") escaped = !escaped;
    else if (c !== ",") escaped = false;
    piece += c;
  }
  const last = piece.replace(TRIM, "");
  if (last !== "") pieces.push(last);
  return pieces;
}

/** `ParseMatcher`: one matcher; `hint` is added when it has no operator (a stray comma's part). */
function parseOne(piece: string, hint: string, text: string): LabelMatcher {
  const context = piece.trim() || text;
  const m = MATCHER.matcher(piece);
  if (!m.matches()) throw new SilenceMatcherError(context, `${FORMAT}${hint}`);
  const name = m.group(1) ?? "";
  const op = m.group(2) as MatchOp;
  const value = unescapeValue(m.group(3) ?? "", context);
  return checkedMatcher({ name, op, value }, context);
}

/**
 * A value as `ParseMatcher` unescapes it: one leading `"` asks for a closing one at the very
 * end; `\"`, `\\` and `\n` are escapes, any other backslash (and one at the end) is itself; an
 * unescaped `"` elsewhere is refused. Go also refuses invalid UTF-8: a lone surrogate here.
 */
function unescapeValue(quoted: string, context: string): string {
  const quotedValue = quoted.startsWith('"');
  const raw = quotedValue ? quoted.slice(1) : quoted;
  if (LONE_SURROGATE.test(raw)) throw new SilenceMatcherError(context, "the value is not valid UTF-8");
  let expectTrailingQuote = quotedValue;
  let value = "";
  let escaped = false;
  const last = raw.length - 1;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string;
    if (escaped) {
      escaped = false;
      value += c === "n" ? "\n" : c === '"' || c === "\\" ? c : `\\${c}`;
    } else if (c === "\\" && i < last) escaped = true;
    else if (c === '"') {
      if (!expectTrailingQuote || i < last) throw new SilenceMatcherError(context, QUOTE);
      expectTrailingQuote = false;
    } else value += c;
  }
  if (expectTrailingQuote) throw new SilenceMatcherError(context, QUOTE);
  return value;
}
