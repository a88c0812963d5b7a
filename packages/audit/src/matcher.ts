import { RE2JS } from "re2js";
import { SilenceMatcherError } from "./errors.ts";
import { type Labels, labelOf } from "./finding.ts";

// Silences match labels as Alertmanager's do (`pkg/labels/matcher.go`): `=`, `!=`, `=~`, `!~`,
// regular expressions fully anchored, a label a finding does not have read as "". They run on
// RE2JS, a port of RE2 (linear time, Go's syntax and defaults: `.` stops at a line break unless
// the pattern says `(?s)`, `$` is the end of the text), never on JavaScript's backtracking
// engine: a silence such as `(a+)+$` cannot hang a run, whatever the label value. Not written by
// hand: regular-expression engines are a library's. Text becomes matchers in `matcher-parse.ts`
// and matchers text in `matcher-format.ts`.

/** The four operators of a matcher. */
export type MatchOp = "=" | "!=" | "=~" | "!~";

/** One label matcher: `reason=~err_keb_.*` is `{ name: "reason", op: "=~", value: "err_keb_.*" }`. */
export interface LabelMatcher {
  name: string;
  op: MatchOp;
  value: string;
}

/** A regular expression longer than this is refused: a silence is typed by a person. */
const MAX_PATTERN = 1_000;
// Stricter than Prometheus' label names (`[a-zA-Z_:][a-zA-Z0-9_:]*`): the labels findings carry.
const NAME = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * A matcher checked as a silence may hold it: a label name of lowercase letters, digits and `_`,
 * and for `=~` and `!~` a regular expression RE2 accepts, at most `MAX_PATTERN` characters.
 * Throws `SilenceMatcherError` naming the problem, with `text` (what was typed) as its context.
 */
export function checkedMatcher(m: LabelMatcher, text: string): LabelMatcher {
  if (!NAME.test(m.name))
    throw new SilenceMatcherError(text, "a label name is lowercase letters, digits and _");
  if (m.op === "=~" || m.op === "!~") compile(m, text);
  return m;
}

const compiled = new Map<string, RE2JS>();

function compile(m: LabelMatcher, text: string): RE2JS {
  const cached = compiled.get(m.value);
  if (cached) return cached;
  if (m.value.length > MAX_PATTERN)
    throw new SilenceMatcherError(text, `a regular expression holds at most ${MAX_PATTERN} characters`);
  let re: RE2JS;
  try {
    // Anchored as Alertmanager anchors them (`NewMatcher`): the whole value must match.
    re = RE2JS.compile(`^(?:${m.value})$`);
  } catch (err) {
    throw new SilenceMatcherError(text, `not a regular expression RE2 accepts: ${(err as Error).message}`, {
      cause: err,
    });
  }
  compiled.set(m.value, re);
  return re;
}

/**
 * Whether every matcher holds for the labels, as Alertmanager's `Matchers.Matches`: a label
 * absent reads as "", so `foo=""` holds for a finding without `foo` and `foo!=""` requires it. A
 * regular expression that does not compile (stored by hand) makes its matcher fail, so its
 * silence silences nothing.
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
    return compile(m, m.value);
  } catch {
    return undefined;
  }
}
