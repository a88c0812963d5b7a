import { readFileSync } from "node:fs";
import { redact } from "@fleet-auditor/keb";
import { parseConfig } from "@fleet-auditor/runner";
import type { Command, Io } from "./command.ts";
import { appsCommand } from "./commands/apps.ts";
import { demoCommand } from "./commands/demo.ts";
import { leaseCommand } from "./commands/lease.ts";
import { runCommand } from "./commands/run.ts";
import { runsCommand } from "./commands/runs.ts";
import { silencesCommand } from "./commands/silences.ts";
import { slackCommand } from "./commands/slack.ts";
import { CliEnvSchema } from "./env.ts";
import { UsageError } from "./errors.ts";
import { escapeControl } from "./table.ts";

/** The command table: `fleet-auditor <name> …` runs the entry of that name. */
export const COMMANDS: readonly Command[] = [
  runCommand,
  runsCommand,
  appsCommand,
  silencesCommand,
  leaseCommand,
  slackCommand,
  demoCommand,
];

const HELP = new Set(["--help", "-h", "help"]);
const VERSION = new Set(["--version", "-V"]);

const USAGE = `usage: fleet-auditor <command> [options]

commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(10)}${c.summary}`).join("\n")}

fleet-auditor <command> --help (or fleet-auditor help <command>) prints a command's usage;
fleet-auditor --version prints the version.
`;

/** The CLI's version, from its package.json. */
export function cliVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return pkg.version;
}

/**
 * Runs one command line and returns the exit code: 0 done, 1 bad input or configuration (the
 * message names the problem; usage errors print the usage too), others as the command says.
 * Help and version, at the top level and for each command, print to stdout and return 0.
 */
export async function runCli(
  argv: readonly string[],
  vars: Readonly<Record<string, string | undefined>>,
  io: Io,
): Promise<number> {
  const [name, ...rest] = argv;
  let command: Command | undefined;
  try {
    if (name === undefined) throw new UsageError("no command given", USAGE);
    if (VERSION.has(name)) return print(io, `fleet-auditor ${cliVersion()}\n`);
    if (HELP.has(name)) {
      const topic = rest[0] === undefined ? undefined : find(rest[0]);
      return print(io, topic?.usage ?? USAGE);
    }
    command = find(name);
    if (rest.some((a) => HELP.has(a) && a !== "help")) return print(io, command.usage);
    if (rest.some((a) => VERSION.has(a))) return print(io, `fleet-auditor ${cliVersion()}\n`);
    const env = parseConfig(CliEnvSchema, vars);
    return await command.run(rest, { env, vars, io, now: () => new Date() });
  } catch (err) {
    // Errors are redacted where they are made; this guards what the terminal shows anyway.
    io.stderr.write(
      `fleet-auditor: ${escapeControl(redact((err as Error).message ?? String(err)))}\n${usageOf(err, command)}`,
    );
    return 1;
  }
}

function find(name: string): Command {
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new UsageError(`unknown command: ${name}`, USAGE);
  return command;
}

function print(io: Io, text: string): number {
  io.stdout.write(text);
  return 0;
}

/** The usage to print after an error: a usage error's own, or the command's for a bad option. */
function usageOf(err: unknown, command: Command | undefined): string {
  if (err instanceof UsageError) return `\n${err.usage}`;
  // node:util parseArgs: an unknown option or a missing value.
  const code = (err as { code?: unknown }).code;
  if (command && typeof code === "string" && code.startsWith("ERR_PARSE_ARGS")) return `\n${command.usage}`;
  return "";
}
