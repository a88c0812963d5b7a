import { redact } from "@fleet-auditor/http";
import { parseConfig } from "@fleet-auditor/use-cases";
// Imported, not read from disk at run time, so that the bundled CLI (npm run build:cli) carries it.
import cliPackage from "../package.json" with { type: "json" };
import { explainAwsError } from "./aws-errors.ts";
import type { Command, Io } from "./command.ts";
import { appsCommand } from "./commands/apps.ts";
import { completionCommand } from "./commands/completion.ts";
import { incidentsCommand } from "./commands/incidents.ts";
import { leaseCommand } from "./commands/lease.ts";
import { notifyCommand } from "./commands/notify.ts";
import { runCommand } from "./commands/run.ts";
import { runsCommand } from "./commands/runs.ts";
import { silencesCommand } from "./commands/silences.ts";
import { slackCommand } from "./commands/slack.ts";
import { CliEnvSchema } from "./env.ts";
import { UsageError } from "./errors.ts";
import { EXIT, EXIT_CODES_HELP, exitCodeOf } from "./exit-codes.ts";
import { type LinkedVariables, withLinkedResources } from "./linked-resources.ts";
import { didYouMean } from "./suggest.ts";
import { escapeControl } from "./table.ts";

/** The command table: `fleet-auditor <name> …` runs the entry of that name. */
export const COMMANDS: readonly Command[] = [
  runCommand,
  runsCommand,
  incidentsCommand,
  appsCommand,
  silencesCommand,
  leaseCommand,
  slackCommand,
  notifyCommand,
  completionCommand(() => COMMANDS),
];

const HELP = new Set(["--help", "-h", "help"]);
const VERSION = new Set(["--version", "-V"]);

const USAGE = `usage: fleet-auditor <command> [options]

commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(12)}${c.summary}`).join("\n")}

fleet-auditor <command> --help (or fleet-auditor help <command>) prints a command's usage;
fleet-auditor --version prints the version. Every command that prints data takes
-o/--output json|yaml|table; the lists (runs list, incidents list, silences list, apps status,
apps quarantine) also --no-headers. An option the subcommand does not take is refused.

State lives in the embedded store under --state-dir (default .fleet-auditor/) unless
AUDIT_TABLE (with ALERT_TOPIC_ARN, CRITICAL_TOPIC_ARN, INCIDENT_TOPIC_ARN) and STATUS_TABLE
name AWS resources. Only run, apps ingest and silences add --force create the embedded store;
the other commands that read or change it say "no embedded store in DIR" and exit 1 where
there is none (a list with -o json|yaml|csv prints an empty list and exits 0; run --dry-run
previews against an empty store in memory, creating none). notify test and slack preview
--from-outbox use the outbox alone.
Inside npx sst shell --stage NAME -- fleet-auditor …, the stage's tables, topics and KEB
secrets come from SST's linked resources; a variable that is set wins.

${EXIT_CODES_HELP}`;

/** The CLI's version, from its package.json. */
export function cliVersion(): string {
  return cliPackage.version;
}

/**
 * Runs one command line and returns the exit code (`EXIT`): 0 done, 1 bad usage or
 * configuration or nothing found, 2 done only in part. An error prints one line naming the
 * problem (a usage error a second, pointing to `--help`); an AWS SDK error that means missing
 * region or credentials says which variables to set or unset. Help and version, at the top
 * level and for each command, print to stdout and return 0.
 */
export async function runCli(
  argv: readonly string[],
  vars: Readonly<Record<string, string | undefined>>,
  io: Io,
): Promise<number> {
  const [name, ...rest] = argv;
  let command: Command | undefined;
  let config: LinkedVariables = { vars, linked: [] };
  try {
    if (name === undefined) throw new UsageError("no command given");
    if (VERSION.has(name)) return print(io, `fleet-auditor ${cliVersion()}\n`);
    if (HELP.has(name)) {
      const topic = rest[0] === undefined ? undefined : find(rest[0]);
      return print(io, topic?.usage ?? USAGE);
    }
    command = find(name);
    if (rest.some((a) => HELP.has(a) && a !== "help")) return print(io, command.usage);
    if (rest.some((a) => VERSION.has(a))) return print(io, `fleet-auditor ${cliVersion()}\n`);
    config = withLinkedResources(vars);
    const env = parseConfig(CliEnvSchema, config.vars);
    return await command.run(rest, { env, vars: config.vars, io, now: () => new Date() });
  } catch (err) {
    const aws = explainAwsError(err, config);
    // Errors are redacted where they are made; this guards what the terminal shows anyway.
    const message = aws ?? (err instanceof Error ? err.message : String(err));
    io.stderr.write(`fleet-auditor: ${escapeControl(redact(message))}\n`);
    if (err instanceof UsageError)
      io.stderr.write(`See 'fleet-auditor${command ? ` ${command.name}` : ""} --help' for usage.\n`);
    return aws ? EXIT.failed : exitCodeOf(err);
  }
}

function find(name: string): Command {
  const command = COMMANDS.find((c) => c.name === name);
  if (command) return command;
  // Before the command, only --help and --version are options.
  if (name.startsWith("-"))
    throw new UsageError(`unknown option ${name}${didYouMean(name, ["--help", "--version"])}`);
  const names = COMMANDS.map((c) => c.name);
  throw new UsageError(`unknown command ${name}${didYouMean(name, names)}`);
}

function print(io: Io, text: string): number {
  io.stdout.write(text);
  return 0;
}
