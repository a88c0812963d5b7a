/**
 * The one base of the errors every package throws: a stable `code` that callers branch on (it
 * never changes meaning), a `message` for humans, and the error that led to it as `cause`. Each
 * package's `errors.ts` extends it with a base of its own (`KebError`, `StoreError`, …) whose
 * codes are a string union, and subclasses that carry typed context (a status, a path, a
 * table name) as fields.
 *
 * One base means one shape to read wherever an error ends up: a log line, a quarantine item
 * (`code` and `message` are its code and reason), a run summary. Subclasses set `name`
 * themselves: a bundler that renames classes must not rename what a log shows.
 *
 * @example
 * ```ts
 * import { FleetAuditorError } from "@fleet-auditor/errors";
 *
 * type ThingErrorCode = "THING_MISSING";
 * class ThingError extends FleetAuditorError<ThingErrorCode> {
 *   constructor(code: ThingErrorCode, message: string, options?: { cause?: unknown }) {
 *     super(code, message, options);
 *     this.name = "ThingError";
 *   }
 * }
 * ```
 */
export class FleetAuditorError<Code extends string = string> extends Error {
  /** Stable: callers branch on it, and logs and quarantine items keep it. */
  readonly code: Code;
  constructor(code: Code, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "FleetAuditorError";
    this.code = code;
  }
}
