import { ConfigError, RunInputError } from "@fleet-auditor/use-cases";
import { UsageError } from "./errors.ts";

/** The exit codes every command follows; `--help` prints them as `EXIT_CODES_HELP`. */
export const EXIT = {
  /** Done: the command did all it was asked. */
  done: 0,
  /** Nothing done: bad usage or configuration, or nothing found (no such run, silence, message). */
  failed: 1,
  /** Ran, but only in part: an incomplete scan, a message not sent, a run skipped (lease), a write that failed for a transient reason. */
  partial: 2,
  /** SIGINT (Ctrl-C). */
  interrupted: 130,
  /** SIGTERM. */
  terminated: 143,
} as const;

/** The exit-code table, as `fleet-auditor --help` prints it. */
export const EXIT_CODES_HELP = `exit codes (every command):
  0        done
  1        bad usage or configuration, or nothing found (no such run, silence or message)
  2        ran, but only in part: an incomplete scan, a message not sent, a run skipped for
           another's lease, nothing released, or a write or AWS call that failed for a
           transient reason (throttled, unreachable, 5xx): try again
  130/143  interrupted (SIGINT, Ctrl-C) / terminated (SIGTERM)
`;

/**
 * Node's codes for an endpoint that could not be reached: down, cut off, or its name not found
 * (ENOTFOUND: a resolver that says "no such name" is as often a VPN or DNS outage as a typo).
 */
const TRANSIENT_NETWORK = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EAI_AGAIN",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);
const TRANSIENT_NAMES = new Set([
  "ThrottlingException",
  "ProvisionedThroughputExceededException",
  "RequestLimitExceeded",
  "ThrottledException",
  "TimeoutError",
  "InternalServerError",
  "ServiceUnavailable",
]);

/**
 * The exit code of a command that threw: 2 for what trying again may mend (an AWS call
 * throttled, a 5xx, the endpoint unreachable), 1 for everything else (usage, configuration, an
 * error nobody foresaw). The cause chain is searched: the use cases and the SDK wrap errors.
 */
export function exitCodeOf(err: unknown): number {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof UsageError || e instanceof ConfigError || e instanceof RunInputError) return EXIT.failed;
    const sdk = e as { $retryable?: unknown; $metadata?: { httpStatusCode?: number }; code?: unknown };
    const status = sdk.$metadata?.httpStatusCode;
    if (sdk.$retryable || (status !== undefined && status >= 500) || TRANSIENT_NAMES.has(e.name))
      return EXIT.partial;
    if (typeof sdk.code === "string" && TRANSIENT_NETWORK.has(sdk.code)) return EXIT.partial;
  }
  return EXIT.failed;
}
