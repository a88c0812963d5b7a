import { FleetAuditorError } from "@fleet-auditor/errors";

/** Stable codes of the CLI's own errors. */
type CliErrorCode = "CLI_USAGE" | "CLI_NO_STORE";

/** Base of the CLI's errors. */
class CliError extends FleetAuditorError<CliErrorCode> {
  constructor(code: CliErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "CliError";
  }
}

/**
 * Bad command-line input: printed as one line, with a second pointing to the command's
 * `--help`; exit code 1.
 */
export class UsageError extends CliError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("CLI_USAGE", message, options);
    this.name = "UsageError";
  }
}

/**
 * A command that reads, or changes what must already be stored (`silences add` without `--force`
 * too: it needs a store that ran), was pointed at an embedded store that is not there (a mistyped
 * `--state-dir`, or a shell in another directory): it says so rather than create an empty store
 * that a later look would read as "nothing has happened". `dir` is the state directory, absolute;
 * exit code 1 (nothing found).
 */
export class NoStoreError extends CliError {
  readonly dir: string;
  constructor(dir: string) {
    super("CLI_NO_STORE", `no embedded store in ${dir}`);
    this.name = "NoStoreError";
    this.dir = dir;
  }
}
