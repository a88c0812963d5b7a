import { RE2JS } from "re2js";
import { SilenceMatcherError } from "./errors.ts";
import { type Labels, labelOf } from "./finding.ts";

// Silences match labels as Alertmanager's do (`pkg/labels/matcher.go`): `=`, `!=`, `=~`, `!~`,
// regular expressions fully anchored. They run on RE2JS, a port of RE2 (linear time, Go's
// syntax), never on JavaScript's backtracking engine: a silence such as `(a+)+$` cannot hang a
// run, whatever the label value. Not written by hand: regular-expression engines are a library's.

/** The four operators of a matcher. */
type MatchOp = "=" | "!=" | "=~" | "!~";

/** One label matcher: `reason=~err_keb_.*` is `{ name: "reason", op: "=~", value: "err_keb_.*" }`. */
export interface LabelMatcher {
  name: string;
  op: MatchOp;
  value: string;
}

/** A regular expression longer than this is refused: a silence is typed by a person. */
const MAX_PATTERN = 1_000;
const NAME = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * Parses `name=value`, `name!=value`, `name=~regex` or `name!~regex` (the value may be empty).
 * Throws `SilenceMatcherError` naming the problem: no operator, a bad label name, a regular
 * expression RE2 refuses or longer than `MAX_PATTERN`.
 */
export function parseMatcher(text: string): LabelMatcher {
  const at = /(!=|=~|!~|=)/.exec(text);
  if (!at)
    throw new SilenceMatcherError(text, "expected NAME=VALUE, NAME!=VALUE, NAME=~REGEX or NAME!~REGEX");
  const name = text.slice(0, at.index);
  const op = at[1] as MatchOp;
  const value = text.slice(at.index + op.length);
  if (!NAME.test(name))
    throw new SilenceMatcherError(text, "a label name is lowercase letters, digits and _");
  const matcher = { name, op, value };
  if (op === "=~" || op === "!~") compile(matcher);
  return matcher;
}

/** A matcher as text, as it was typed: `reason=~err_keb_.*`. */
export function formatMatcher(m: LabelMatcher): string {
  return `${m.name}${m.op}${m.value}`;
}

const compiled = new Map<string, RE2JS>();

function compile(m: LabelMatcher): RE2JS {
  const cached = compiled.get(m.value);
  if (cached) return cached;
  if (m.value.length > MAX_PATTERN)
    throw new SilenceMatcherError(
      formatMatcher(m),
      `a regular expression holds at most ${MAX_PATTERN} characters`,
    );
  let re: RE2JS;
  try {
    // Anchored as Alertmanager anchors them: the whole value must match.
    re = RE2JS.compile(`^(?:${m.value})$`);
  } catch (err) {
    throw new SilenceMatcherError(
      formatMatcher(m),
      `not a regular expression RE2 accepts: ${(err as Error).message}`,
      {
        cause: err,
      },
    );
  }
  compiled.set(m.value, re);
  return re;
}

/**
 * Whether every matcher holds for the labels (a label absent reads as ""). A regular expression
 * that does not compile (stored by hand) makes its matcher fail, so its silence silences nothing.
 */
export function matchesAll(matchers: readonly LabelMatcher[], labels: Labels): boolean {
  return matchers.every((m) => {
    const value = labelOf(labels, m.name);
    switch (m.op) {
      case "=":
        return value === m.value;
      case "!=":
        return value !== m.value;
      case "=~":
        return regex(m)?.matches(value) ?? false;
      case "!~":
        return !(regex(m)?.matches(value) ?? true);
      default:
        return false;
    }
  });
}

/** A stored expression that no longer compiles matches nothing: a bad silence must not jam a run. */
function regex(m: LabelMatcher): RE2JS | undefined {
  try {
    return compile(m);
  } catch {
    return undefined;
  }
}
