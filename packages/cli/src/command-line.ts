import { type ParseArgsOptionsConfig, parseArgs } from "node:util";
import type { TakenBy } from "./command.ts";
import { UsageError } from "./errors.ts";
import { didYouMean } from "./suggest.ts";

/** The subcommand a command line is for, and which of the command's options only some take. */
export interface SubcommandOptions {
  /** `silences list`: the command and the subcommand, as the user typed them. */
  command: string;
  sub: string;
  takenBy: TakenBy;
}

/**
 * `parseArgs` (strict) for a command's options and up to `maxPositionals` arguments, with its
 * errors said in the CLI's words: `unknown option --adit; did you mean --audit?`, `--audit needs
 * a value`, `--dry-run takes no value`, `unexpected argument: x`. node:util's own texts (which
 * talk of "positional arguments" and `--` to a user who typed a typo) never reach the terminal.
 * With `subcommand`, an option that subcommand does not take is refused, naming the one that
 * does (`silences list does not take --for (silences add does)`): ignored, it would do nothing
 * the user can see.
 */
export function parseCommandLine<const O extends ParseArgsOptionsConfig>(
  args: readonly string[],
  options: O,
  maxPositionals = 0,
  subcommand?: SubcommandOptions,
) {
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true; tokens: true }>
  >;
  const spelled = withShortEquals(args, options);
  try {
    parsed = parseArgs({ args: spelled, options, allowPositionals: true, strict: true, tokens: true });
  } catch (err) {
    throw (
      explain(spelled, options) ??
      new UsageError(`cannot read the options: ${args.join(" ")}`, { cause: err })
    );
  }
  if (subcommand) refuseOthers(parsed.tokens, subcommand);
  const extra = parsed.positionals[maxPositionals];
  if (extra !== undefined) throw new UsageError(`unexpected argument: ${extra}`);
  return parsed;
}

/** Whether subcommand `sub` takes the option `name` (every one takes an option `takenBy` does not name). */
export function takes(takenBy: TakenBy | undefined, sub: string, name: string): boolean {
  const takers = takenBy && Object.hasOwn(takenBy, name) ? takenBy[name] : undefined;
  return takers === undefined || takers.includes(sub);
}

function refuseOthers(
  tokens: ReadonlyArray<{ kind: string; name?: string; rawName?: string }>,
  { command, sub, takenBy }: SubcommandOptions,
): void {
  for (const token of tokens) {
    if (token.kind !== "option" || token.name === undefined || takes(takenBy, sub, token.name)) continue;
    const takers = (takenBy[token.name] ?? []).map((t) => `${command} ${t}`);
    const who =
      takers.length > 1 ? `${takers.slice(0, -1).join(", ")} and ${takers.at(-1)} do` : `${takers[0]} does`;
    throw new UsageError(`${command} ${sub} does not take --${token.name} (${who})`);
  }
}

/**
 * `-o=yaml` as kubectl (pflag) takes it: node:util would read the value as `=yaml`. Only a short
 * option that takes a value, and only before `--`, is rewritten to `-o yaml`.
 */
function withShortEquals(args: readonly string[], options: ParseArgsOptionsConfig): string[] {
  const shorts = new Set(
    Object.values(options)
      .filter((o) => o.type === "string" && o.short)
      .map((o) => o.short),
  );
  const end = args.indexOf("--");
  return args.flatMap((arg, i) => {
    const m = /^-([A-Za-z])=(.*)$/s.exec(arg);
    return m && shorts.has(m[1]) && (end === -1 || i < end) ? [`-${m[1]}`, m[2] as string] : [arg];
  });
}

/** The first problem in `args`, found from parseArgs' tokens rather than from its message text. */
function explain(args: readonly string[], options: ParseArgsOptionsConfig): UsageError | undefined {
  const { tokens } = parseArgs({
    args: [...args],
    options,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  const longNames = Object.keys(options).map((name) => `--${name}`);
  for (const token of tokens) {
    if (token.kind !== "option") continue;
    const def = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
    if (!def) return new UsageError(`unknown option ${token.rawName}${didYouMean(token.rawName, longNames)}`);
    if (def.type === "string" && token.value === undefined)
      return new UsageError(`${token.rawName} needs a value`);
    // Strict parseArgs refuses `--audit --dry-run` (a value that looks like an option) as ambiguous.
    if (def.type === "string" && token.inlineValue === false && token.value?.startsWith("-")) {
      const known = longNames.includes(token.value.split("=")[0] as string);
      return new UsageError(
        `${token.rawName} needs a value${known ? "" : `; for one that starts with -, write --${token.name}=${token.value}`}`,
      );
    }
    if (def.type === "boolean" && token.value !== undefined)
      return new UsageError(`${token.rawName} takes no value`);
  }
  return undefined;
}
