import { type ParseArgsOptionsConfig, parseArgs } from "node:util";
import { UsageError } from "./errors.ts";
import { didYouMean } from "./suggest.ts";

/**
 * `parseArgs` (strict) for a command's options and up to `maxPositionals` arguments, with its
 * errors said in the CLI's words: `unknown option --adit; did you mean --audit?`, `--audit needs
 * a value`, `--dry-run takes no value`, `unexpected argument: x`. node:util's own texts (which
 * talk of "positional arguments" and `--` to a user who typed a typo) never reach the terminal.
 */
export function parseCommandLine<const O extends ParseArgsOptionsConfig>(
  args: readonly string[],
  options: O,
  maxPositionals = 0,
) {
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>
  >;
  const spelled = withShortEquals(args, options);
  try {
    parsed = parseArgs({ args: spelled, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw (
      explain(spelled, options) ??
      new UsageError(`cannot read the options: ${args.join(" ")}`, { cause: err })
    );
  }
  const extra = parsed.positionals[maxPositionals];
  if (extra !== undefined) throw new UsageError(`unexpected argument: ${extra}`);
  return parsed;
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
