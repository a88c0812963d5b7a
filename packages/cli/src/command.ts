import type { ParseArgsOptionsConfig } from "node:util";
import type { CliEnv } from "./env.ts";

/** The streams a command talks to; tests pass their own. */
export interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream;
}

/** What every command gets: the parsed environment, the raw variables (for `KEB_*`), streams, a clock. */
export interface CommandContext {
  env: CliEnv;
  vars: Readonly<Record<string, string | undefined>>;
  io: Io;
  now: () => Date;
}

/**
 * For an option that only some subcommands take, those subcommands (`{ for: ["add"] }`); an
 * option it does not name is taken by every subcommand. The others refuse it.
 */
export type TakenBy = Readonly<Record<string, readonly string[]>>;

/** One entry of the command table. `run` returns the exit code; bad input throws `UsageError`. */
export interface Command {
  name: string;
  /** One line for the top-level usage. */
  summary: string;
  usage: string;
  /** The subcommands of a command that has them (`runs list|show`); completion offers them. */
  subcommands?: readonly string[];
  /** Every option, as `parseCommandLine` takes them; completion offers them. */
  options: ParseArgsOptionsConfig;
  /** Which subcommands take an option that only some take. */
  takenBy?: TakenBy;
  run(argv: string[], ctx: CommandContext): Promise<number>;
}
