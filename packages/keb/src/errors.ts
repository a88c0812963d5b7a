import { FleetAuditorError } from "@fleet-auditor/errors";

/** Stable codes callers can branch on; they never change meaning. */
export type KebErrorCode =
  | "KEB_HTTP"
  | "KEB_SCHEMA"
  | "KEB_AUTH"
  | "KEB_INCOMPLETE"
  | "KEB_TIMEOUT"
  | "KEB_DEADLINE"
  | "KEB_CONFIG";

/** Base of every error the KEB client throws. `code` is stable; `message` is for humans. */
export class KebError extends FleetAuditorError<KebErrorCode> {
  constructor(code: KebErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "KebError";
  }
}

/**
 * KEB (or the gateway in front of it), or the token endpoint, answered with a non-success status
 * that says nothing of the credentials (5xx, 429 from the token endpoint), or the connection
 * failed: try again.
 */
export class KebHttpError extends KebError {
  /** HTTP status; 0 when no response arrived (connection refused or reset). */
  readonly status: number;
  /** The first few hundred characters of the body: KEB's `{"error":…}` text or a gateway's plain text. */
  readonly bodyExcerpt: string;
  readonly url: string;
  constructor(args: {
    status: number;
    bodyExcerpt: string;
    url: string;
    detail?: string;
    /** What was asked, for the message: `GET <url>` unless said (`token endpoint <origin>`). */
    request?: string;
    cause?: unknown;
  }) {
    const what = args.status === 0 ? (args.detail ?? "no response") : `HTTP ${args.status}`;
    const body = args.bodyExcerpt ? `: ${args.bodyExcerpt}` : "";
    super("KEB_HTTP", `${args.request ?? `GET ${args.url}`} failed with ${what}${body}`, {
      cause: args.cause,
    });
    this.name = "KebHttpError";
    this.status = args.status;
    this.bodyExcerpt = args.bodyExcerpt;
    this.url = args.url;
  }
}

/** A response did not match what KEB sends. `path` is the JSON path of the first problem. */
export class KebSchemaError extends KebError {
  readonly path: string;
  readonly instanceID: string | undefined;
  readonly page: number | undefined;
  constructor(args: { path: string; problem: string; instanceID?: string; page?: number; cause?: unknown }) {
    const where = [
      args.page === undefined ? undefined : `page ${args.page}`,
      args.instanceID === undefined ? undefined : `instance ${args.instanceID}`,
    ]
      .filter(Boolean)
      .join(", ");
    super("KEB_SCHEMA", `KEB response ${where ? `(${where}) ` : ""}at ${args.path}: ${args.problem}`, {
      cause: args.cause,
    });
    this.name = "KebSchemaError";
    this.path = args.path;
    this.instanceID = args.instanceID;
    this.page = args.page;
  }
}

/**
 * No usable token: the token endpoint refused (a 4xx other than 429: the credentials, the client,
 * the URL's path) or answered something that is not a token, or KEB (Istio) answered 401/403: a
 * matter of configuration. Never carries a secret.
 */
export class KebAuthError extends KebError {
  readonly status: number | undefined;
  constructor(message: string, options?: { status?: number; cause?: unknown }) {
    super("KEB_AUTH", message, { cause: options?.cause });
    this.name = "KebAuthError";
    this.status = options?.status;
  }
}

/** A request ran past its connect, headers, body or overall deadline. */
export class KebTimeoutError extends KebError {
  readonly phase: "connect" | "headers" | "body" | "deadline";
  constructor(phase: KebTimeoutError["phase"], url: string, options?: { cause?: unknown }) {
    super("KEB_TIMEOUT", `GET ${url} timed out (${phase})`, options);
    this.name = "KebTimeoutError";
    this.phase = phase;
  }
}

/**
 * The caller's signal (the run's deadline) aborted a page, a token fetch or a scan before it
 * finished: the scan ends incomplete, with what did arrive. `cause` is the signal's reason.
 */
export class KebDeadlineError extends KebError {
  constructor(before: string, options?: { cause?: unknown }) {
    super("KEB_DEADLINE", `the run's deadline passed before ${before}`, options);
    this.name = "KebDeadlineError";
  }
}

/** A scan could not be verified complete; see `reason`. Thrown by `requireComplete`. */
export class KebIncompleteError extends KebError {
  readonly reason: string;
  constructor(reason: string, options?: { cause?: unknown }) {
    super("KEB_INCOMPLETE", `incomplete scan: ${reason}`, options);
    this.name = "KebIncompleteError";
    this.reason = reason;
  }
}

/** The client was configured in a way that cannot work or is unsafe (e.g. plain http to a remote host). */
export class KebConfigError extends KebError {
  constructor(message: string) {
    super("KEB_CONFIG", message);
    this.name = "KebConfigError";
  }
}
