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

/** One entry of the command table. `run` returns the exit code; bad input throws `UsageError`. */
export interface Command {
  name: string;
  /** One line for the top-level usage. */
  summary: string;
  usage: string;
  run(argv: string[], ctx: CommandContext): Promise<number>;
}
