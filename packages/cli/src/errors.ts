/** Stable codes of the CLI's own errors. */
export type CliErrorCode = "CLI_USAGE";

/** Base of the CLI's errors. */
export class CliError extends Error {
  readonly code: CliErrorCode;
  constructor(code: CliErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CliError";
    this.code = code;
  }
}

/** Bad command-line input: printed with the usage, exit code 1. */
export class UsageError extends CliError {
  readonly usage: string;
  constructor(message: string, usage: string) {
    super("CLI_USAGE", message);
    this.name = "UsageError";
    this.usage = usage;
  }
}
