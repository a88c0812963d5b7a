/**
 * What a terminal acts on instead of showing: C0 controls (ESC starts the sequences that clear
 * the screen, retitle the window or rewrite lines; CR and LF forge lines), DEL and C1 controls
 * (U+009B is CSI to an 8-bit terminal, U+0085 a line break), all three `\p{Cc}`; the line and
 * paragraph separators; and the bidi marks, embeddings, overrides and isolates that reorder what
 * is read (`\p{Bidi_Control}`: U+061C, U+200E-F, U+202A-E, U+2066-9).
 */
const ACTIVE = /[\p{Cc}\p{Zl}\p{Zp}\p{Bidi_Control}]/gu;

const SHORT: ReadonlyMap<string, string> = new Map([
  ["\n", "\\n"],
  ["\r", "\\r"],
  ["\t", "\\t"],
]);

/**
 * Makes outside text (KEB, the edge, a shared table) safe to print: every character a terminal
 * would act on is written out visibly, `\n`, `\x1b`, `\u202e` style, and everything else is kept.
 * A backslash is left as it is: doubling it would garble every path and pattern in a reason for
 * no safety gained, so `\n` in the output may also be a backslash and an `n` that were sent.
 *
 * @example escapeControl("a\u001b[2Jb\nc") // "a\\x1b[2Jb\\nc"
 */
export function escapeControl(text: string): string {
  return text.replace(ACTIVE, (c) => {
    const short = SHORT.get(c);
    if (short) return short;
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16)}`;
  });
}

/**
 * Renders rows as a plain aligned text table, like `kcp runtimes` does. Every cell and header is
 * passed through `escapeControl` first, so a row is always one line, whatever its data holds:
 * every command's table gets that here, none has to remember it.
 */
export function renderTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const safeHeaders = headers.map(escapeControl);
  const safeRows = rows.map((r) => r.map(escapeControl));
  const widths = safeHeaders.map((h, c) => Math.max(h.length, ...safeRows.map((r) => (r[c] ?? "").length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, c) => cell.padEnd(widths[c] ?? 0))
      .join("   ")
      .trimEnd();
  return [line(safeHeaders), ...safeRows.map(line)].join("\n");
}

/**
 * One RFC 4180 CSV cell. Control characters are escaped as in tables (a record stays one line,
 * and a terminal that `cat`s the file runs nothing). A cell a spreadsheet would run as a formula
 * (it starts with `=`, `+`, `-` or `@`) is prefixed with `'`, OWASP's guard against CSV injection;
 * tab and CR, the other two starters OWASP names, cannot start a cell once escaped.
 */
export function csvCell(value: string): string {
  const escaped = escapeControl(value);
  const safe = /^[=+\-@]/.test(escaped) ? `'${escaped}` : escaped;
  return /[",]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** What `JSON.stringify` leaves raw and a terminal still acts on: DEL, C1, separators, bidi. */
const ACTIVE_IN_JSON = /[\u007f-\u009f\p{Zl}\p{Zp}\p{Bidi_Control}]/gu;

/**
 * `JSON.stringify(value, null, space)` safe to print: JSON escapes C0 controls already; the rest
 * of what `escapeControl` covers is written as `\uXXXX` escapes, so a program reads the same value.
 */
export function terminalJson(value: unknown, space = 2): string {
  return JSON.stringify(value, null, space).replace(
    ACTIVE_IN_JSON,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
