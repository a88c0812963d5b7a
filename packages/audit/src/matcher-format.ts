import type { LabelMatcher } from "./matcher.ts";

// A matcher printed so that `parseMatchers` reads it back to the same matcher. A value is left
// bare when it holds none of the characters Alertmanager's newer parser reserves
// (`matcher/parse/lexer.go` `isReserved`: white space and `{}!=~,\"'` and the backtick), so that
// both of Alertmanager's parsers read it as it is; any other value, and the empty one, is put in
// double quotes with OpenMetrics' escapes, as Alertmanager's `Matcher.String` writes it.

const RESERVED = /[\s\u0085{}!=~,\\"'`]/u;

/**
 * A matcher as text that `parseMatchers` (and amtool) read back to the same matcher: the value
 * bare when nothing in it needs quoting, else in double quotes with `\\`, `\"` and `\n` escaped.
 *
 * @example formatMatcher({ name: "reason", op: "=~", value: "err_keb_.*" }) // reason=~err_keb_.*
 * @example formatMatcher({ name: "reason", op: "=", value: 'quota "m5", eu' }) // reason="quota \"m5\", eu"
 */
export function formatMatcher(m: LabelMatcher): string {
  return `${m.name}${m.op}${quoteValue(m.value)}`;
}

function quoteValue(value: string): string {
  if (value !== "" && !RESERVED.test(value)) return value;
  return `"${value.replace(/[\\"\n]/g, (c) => (c === "\n" ? "\\n" : `\\${c}`))}"`;
}
