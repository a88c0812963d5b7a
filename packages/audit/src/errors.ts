/** Stable codes of the audit engine's errors. */
export type AuditErrorCode = "AUDIT_UNKNOWN";

/** Base of the audit engine's errors. */
export class AuditError extends Error {
  readonly code: AuditErrorCode;
  constructor(code: AuditErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "AuditError";
    this.code = code;
  }
}

/** No audit of that name is defined. */
export class UnknownAuditError extends AuditError {
  constructor(name: string, known: readonly string[]) {
    super("AUDIT_UNKNOWN", `unknown audit ${JSON.stringify(name)}; known: ${known.join(", ")}`);
    this.name = "UnknownAuditError";
  }
}
