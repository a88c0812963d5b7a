import type { Io } from "./command.ts";
import { UsageError } from "./errors.ts";
import { didYouMean } from "./suggest.ts";
import { terminalJson } from "./table.ts";
import { toYaml } from "./yaml.ts";

/** `--output` (`-o`, as kubectl and kcp spell it) for `parseCommandLine`; `table` unless given. */
export const outputOption = { output: { type: "string", short: "o", default: "table" } } as const;

/** The formats of every command that prints data: a table for people, JSON or YAML for programs. */
export const DATA_FORMATS = ["json", "yaml", "table"] as const;

/** An output format; `csv` only where a command offers it (`runs show`). */
export type Output = (typeof DATA_FORMATS)[number] | "csv";

/** Checks `--output` against the formats this command offers, suggesting the one probably meant. */
export function parseOutput<const F extends Output = (typeof DATA_FORMATS)[number]>(
  value: string,
  formats: readonly F[] = DATA_FORMATS as unknown as readonly F[],
): F {
  if ((formats as readonly string[]).includes(value)) return value as F;
  const list = `${formats.slice(0, -1).join(", ")} or ${formats.at(-1)}`;
  throw new UsageError(`--output must be ${list}, got ${value}${didYouMean(value, formats)}`);
}

/**
 * Prints `data` as JSON or YAML (the same data, terminal controls escaped either way), or the
 * `table` a command renders for people.
 */
export function printData(io: Io, output: Output, data: unknown, table: () => string): void {
  if (output === "json") io.stdout.write(`${terminalJson(data)}\n`);
  else if (output === "yaml") io.stdout.write(toYaml(data));
  else io.stdout.write(`${table()}\n`);
}
