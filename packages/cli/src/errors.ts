import { FleetAuditorError } from "@fleet-auditor/errors";

/** Stable codes of the CLI's own errors. */
type CliErrorCode = "CLI_USAGE";

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
