import { userInfo } from "node:os";
import { UsageError } from "./errors.ts";
import { didYouMean } from "./suggest.ts";

// What several commands parse alike: one spelling, one error text, one default.

/** Where the embedded store and the outbox live unless `--state-dir` says otherwise. */
export const DEFAULT_STATE_DIR = ".fleet-auditor";

/** The `--state-dir` option for `parseArgs`. */
export const stateDirOption = { "state-dir": { type: "string", default: DEFAULT_STATE_DIR } } as const;

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

/** The longest delay Node's timers hold, 2^31-1 ms (about 24.8 days): a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A duration that a timer will wait (`run --deadline`), in ms: refused past what Node's timers
 * hold, where `setTimeout` fires after 1 ms instead (with only a warning), and refused at 0.
 *
 * @example parseTimerDuration("25d", "--deadline") // UsageError: give 24d or less
 */
export function parseTimerDuration(value: string, flag: string): number {
  const ms = parseDuration(value);
  if (ms === undefined) throw new UsageError(`${flag} ${value}: expected a duration such as 90s, 10m or 1h`);
  if (ms === 0) throw new UsageError(`${flag} ${value}: give a duration longer than 0`);
  if (ms > MAX_TIMER_MS) {
    const unit = value.slice(-1) as keyof typeof UNIT_MS;
    throw new UsageError(
      `${flag} ${value}: Node's timers hold at most 2^31-1 ms (about 24.8 days): give ${Math.floor(MAX_TIMER_MS / UNIT_MS[unit])}${unit} or less`,
    );
  }
  return ms;
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
export function parseSince(value: string, now: Date): Date {
  const ago = parseDuration(value);
  if (ago !== undefined) return new Date(now.getTime() - ago);
  const at = parseIsoTime(value);
  if (at) return at;
  throw new UsageError(`--since ${value}: expected an ISO time or a duration such as 90s, 30m, 1h, 2d`);
}

/**
 * Repeated `--flag KEY=VALUE` options (the value may contain `=`), mapped to field names; repeated
 * keys collect their values in order. With `commas`, `KEY=A,B` is `KEY=A KEY=B`, as kcp reads its
 * filter flags (pflag's string slices): for values that never hold a comma, such as KEB's plan,
 * region and ID filters.
 */
export function parseKeyValues<F extends string>(
  pairs: readonly string[],
  keys: Readonly<Record<string, F>>,
  flag: string,
  { commas = false }: { commas?: boolean } = {},
): Map<F, string[]> {
  const out = new Map<F, string[]>();
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    const key = at > 0 ? pair.slice(0, at) : "";
    const value = pair.slice(at + 1);
    const field = Object.hasOwn(keys, key) ? keys[key] : undefined;
    if (at <= 0 || !field || value === "") {
      throw new UsageError(
        `${flag} ${pair}: expected KEY=VALUE with KEY one of ${Object.keys(keys).join(", ")}${didYouMean(key, Object.keys(keys))}`,
      );
    }
    const values = commas ? value.split(",") : [value];
    if (values.includes(""))
      throw new UsageError(`${flag} ${pair}: an empty value in a comma-separated list`);
    out.set(field, [...(out.get(field) ?? []), ...values]);
  }
  return out;
}

/** `--limit N`: a positive integer, or undefined when not given. */
export function parseLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--limit must be a positive integer, got ${value}`);
  return n;
}

/**
 * Checks a value against the names it may take (`--audit`, a subcommand), suggesting the one
 * probably meant: `--audit failng: one of failing, expired; did you mean failing?`.
 */
export function oneOf<T extends string>(value: string, names: readonly T[], what: string): T {
  if ((names as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${what} ${value}: one of ${names.join(", ")}${didYouMean(value, names)}`);
}

/** The subcommand of a command with several (`runs list|show`), or a usage error naming them. */
export function subcommand<T extends string>(
  command: string,
  sub: string | undefined,
  names: readonly T[],
): T {
  if (sub === undefined || sub.startsWith("-"))
    throw new UsageError(`${command} needs a command: ${names.join(", ")}`);
  if ((names as readonly string[]).includes(sub)) return sub as T;
  throw new UsageError(`unknown ${command} command ${sub}${didYouMean(sub, names)}`);
}

/**
 * Who acts (`--by NAME`): the name given, else `$USER`, else the account the process runs as
 * (`account`, by default the operating system's); undefined when none is known. An empty `--by`
 * counts as not given: a pasted `--by "$USER"` where `USER` is unset (a container, cron) must
 * still work.
 */
export function byWhom(
  given: string | undefined,
  vars: Readonly<Record<string, string | undefined>>,
  account: () => string | undefined = accountName,
): string | undefined {
  for (const name of [given, vars.USER]) if (name?.trim()) return name.trim();
  return account()?.trim() || undefined;
}

function accountName(): string | undefined {
  try {
    return userInfo().username;
  } catch {
    // A uid with no entry in the password database (some containers): no name to give.
    return undefined;
  }
}
