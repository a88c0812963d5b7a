import { UsageError } from "./errors.ts";

// What several commands parse alike: one spelling, one error text, one default.

/** Where the embedded store and the outbox live unless `--state-dir` says otherwise. */
export const DEFAULT_STATE_DIR = ".fleet-auditor";

/** The `--state-dir` option for `parseArgs`. */
export const stateDirOption = { "state-dir": { type: "string", default: DEFAULT_STATE_DIR } } as const;

/** The `--output` option for `parseArgs`: `table` for people (the default), `json` for programs. */
export const outputOption = { output: { type: "string", default: "table" } } as const;

/** The output formats every command offers. */
export type Output = "json" | "table";

/** Checks `--output`. */
export function parseOutput(value: string, usage: string): Output {
  if (value === "json" || value === "table") return value;
  throw new UsageError(`--output must be json or table, got ${value}`, usage);
}

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

// Past this a duration is a typo, and past it `Date` overflows into an invalid time.
const MAX_DURATION_MS = 10 * 365 * 86_400_000;

/** A duration such as `90s`, `30m`, `4h` or `2d` (up to 10 years), in ms; undefined when `value` is not one. */
export function parseDuration(value: string): number | undefined {
  const match = /^(\d{1,12})(s|m|h|d)$/.exec(value);
  if (!match) return undefined;
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  return ms <= MAX_DURATION_MS ? ms : undefined;
}

/** An ISO time with a date and a time (`2026-11-30T06:00:00Z`); undefined when `value` is not one. */
export function parseIsoTime(value: string): Date | undefined {
  const day = /^(\d{4})-(\d{2})-(\d{2})T/.exec(value);
  if (!day) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  // `Date` rolls 2026-02-30 into March: refuse a day the month does not have.
  const [, y, m, d] = day.map(Number) as [number, number, number, number];
  const check = new Date(Date.UTC(y, m - 1, d));
  return check.getUTCMonth() === m - 1 && check.getUTCDate() === d ? new Date(at) : undefined;
}

/** `--since`: an ISO time, or a duration back from `now`. */
export function parseSince(value: string, now: Date, usage: string): Date {
  const ago = parseDuration(value);
  if (ago !== undefined) return new Date(now.getTime() - ago);
  const at = parseIsoTime(value);
  if (at) return at;
  throw new UsageError(
    `--since ${value}: expected an ISO time or a duration such as 90s, 30m, 1h, 2d`,
    usage,
  );
}

/**
 * Repeated `--flag KEY=VALUE` options (the value may contain `=`), mapped to field names; repeated
 * keys collect their values in order.
 */
export function parseKeyValues<F extends string>(
  pairs: readonly string[],
  keys: Readonly<Record<string, F>>,
  flag: string,
  usage: string,
): Map<F, string[]> {
  const out = new Map<F, string[]>();
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    const key = at > 0 ? pair.slice(0, at) : "";
    const value = pair.slice(at + 1);
    const field = Object.hasOwn(keys, key) ? keys[key] : undefined;
    if (at <= 0 || !field || value === "") {
      throw new UsageError(
        `${flag} ${pair}: expected KEY=VALUE with KEY one of ${Object.keys(keys).join(", ")}`,
        usage,
      );
    }
    out.set(field, [...(out.get(field) ?? []), value]);
  }
  return out;
}

/** `--limit N`: a positive integer, or undefined when not given. */
export function parseLimit(value: string | undefined, usage: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`--limit must be a positive integer, got ${value}`, usage);
  return n;
}

/** Refuses arguments past the `allowed` a subcommand takes, instead of ignoring them. */
export function atMostPositionals(positionals: readonly string[], allowed: number, usage: string): void {
  if (positionals.length > allowed)
    throw new UsageError(`unexpected argument: ${positionals[allowed]}`, usage);
}
