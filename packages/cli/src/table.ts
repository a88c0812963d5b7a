/** Renders rows as a plain aligned text table, like `kcp runtimes` does. */
export function renderTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = headers.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? "").length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, c) => cell.padEnd(widths[c] ?? 0))
      .join("   ")
      .trimEnd();
  return [line(headers), ...rows.map(line)].join("\n");
}
