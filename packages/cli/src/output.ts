import type { Io } from "./command.ts";
import { UsageError } from "./errors.ts";
import { didYouMean } from "./suggest.ts";
import { renderTable, terminalJson } from "./table.ts";
import { toYaml } from "./yaml.ts";

/** `--output` (`-o`, as kubectl and kcp spell it) for `parseCommandLine`; `table` unless given. */
export const outputOption = { output: { type: "string", short: "o", default: "table" } } as const;

/** `--no-headers` for the commands that print a list: the table's rows only, as kubectl prints them. */
export const noHeadersOption = { "no-headers": { type: "boolean", default: false } } as const;

/** The formats of every command that prints data: a table for people, JSON or YAML for programs. */
export const DATA_FORMATS = ["json", "yaml", "table"] as const;

/**
 * An output format; `csv` only where a command offers it (`runs show`, `incidents list`), `html`
 * only for the page `incidents report` writes.
 */
export type Output = (typeof DATA_FORMATS)[number] | "csv" | "html";

/** Checks `--output` against the formats this command offers, suggesting the one probably meant. */
export function parseOutput<const F extends Output = (typeof DATA_FORMATS)[number]>(
  value: string,
  formats: readonly F[] = DATA_FORMATS as unknown as readonly F[],
): F {
  if ((formats as readonly string[]).includes(value)) return value as F;
  const list = formats.length > 1 ? `${formats.slice(0, -1).join(", ")} or ${formats.at(-1)}` : formats[0];
  throw new UsageError(`--output must be ${list}, got ${value}${didYouMean(value, formats)}`);
}

/**
 * Prints `data` as JSON or YAML (the same data, terminal controls escaped either way), or the
 * `table` a command renders for people; an empty table prints nothing.
 */
export function printData(io: Io, output: Output, data: unknown, table: () => string): void {
  if (output === "json") io.stdout.write(`${terminalJson(data)}\n`);
  else if (output === "yaml") io.stdout.write(toYaml(data));
  else {
    const text = table();
    if (text !== "") io.stdout.write(`${text}\n`);
  }
}

/**
 * A list as a table (`renderTable`), or `empty` when it has no rows. With `noHeaders`
 * (`--no-headers`), the rows alone, aligned as under the header, and nothing for no rows: what a
 * script reads line by line, one line per item.
 */
export function listTable(
  headers: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  { empty, noHeaders }: { empty: string; noHeaders: boolean },
): string {
  if (rows.length === 0) return noHeaders ? "" : empty;
  const table = renderTable(headers, rows);
  return noHeaders ? table.slice(table.indexOf("\n") + 1) : table;
}
