import { FleetAuditorError } from "@fleet-auditor/errors";

/** Stable codes of the audit engine's errors. */
type AuditErrorCode = "AUDIT_UNKNOWN" | "SILENCE_MATCHER";

/** Base of the audit engine's errors. */
class AuditError extends FleetAuditorError<AuditErrorCode> {
  constructor(code: AuditErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "AuditError";
  }
}

/** No audit of that name is defined. */
export class UnknownAuditError extends AuditError {
  constructor(name: string, known: readonly string[]) {
    super("AUDIT_UNKNOWN", `unknown audit ${JSON.stringify(name)}; known: ${known.join(", ")}`);
    this.name = "UnknownAuditError";
  }
}

/**
 * A label matcher that cannot be used: bad syntax, a bad label name, a stray double quote, a bad
 * or too long regular expression. `matcher` is the matcher's text as typed, `problem` what is
 * wrong with it.
 */
export class SilenceMatcherError extends AuditError {
  readonly matcher: string;
  readonly problem: string;
  constructor(matcher: string, problem: string, options?: { cause?: unknown }) {
    super("SILENCE_MATCHER", `matcher ${JSON.stringify(matcher.slice(0, 80))}: ${problem}`, options);
    this.name = "SilenceMatcherError";
    this.matcher = matcher;
    this.problem = problem;
  }
}
