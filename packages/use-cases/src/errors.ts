import { FleetAuditorError } from "@fleet-auditor/errors";
import type { ZodError, ZodType } from "zod";

/** Stable codes of the use cases' errors. */
type UseCaseErrorCode = "CONFIG" | "RUN_INPUT" | "RUN_DEADLINE" | "SECRET_UNREADABLE" | "ORDER_BUSY";

/** Base of the use cases' errors: configuration and inputs that cannot work. */
class UseCaseError extends FleetAuditorError<UseCaseErrorCode> {
  constructor(code: UseCaseErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "UseCaseError";
  }
}

/** One thing wrong with a configuration or an input: where, and what. */
export interface Problem {
  /** A variable name, or a dotted field path (`filters.plans`), or `(input)` for the whole. */
  path: string;
  message: string;
}

/** Configuration that cannot work; the message names each variable and what is wrong with it. */
export class ConfigError extends UseCaseError {
  readonly variables: string[];
  constructor(problems: readonly Problem[]) {
    super("CONFIG", `invalid configuration: ${describe(problems)}`);
    this.name = "ConfigError";
    this.variables = problems.map((p) => p.path);
  }
}

/** An event or query that does not validate; `problems` names each bad field. */
export class RunInputError extends UseCaseError {
  readonly problems: string[];
  constructor(problems: readonly Problem[]) {
    super("RUN_INPUT", `invalid input: ${describe(problems)}`);
    this.name = "RunInputError";
    this.problems = problems.map((p) => `${p.path}: ${p.message}`);
  }
}

/** A run's deadline passed while it waited on a stage; the run ends incomplete. */
export class RunDeadlineError extends UseCaseError {
  readonly stage: string;
  constructor(stage: string) {
    super("RUN_DEADLINE", `the run's deadline passed while ${stage}`);
    this.name = "RunDeadlineError";
    this.stage = stage;
  }
}

/**
 * A message's key stayed held by another delivery (a message of the same incident or episode,
 * sent at that moment) until this invocation's deadline: the invocation fails, and Lambda's
 * retry, a minute or more later, finds the key free. `key` is the incident's or episode's key.
 */
export class OrderBusyError extends UseCaseError {
  readonly key: string;
  constructor(key: string) {
    super("ORDER_BUSY", `another delivery held the key ${key} until this invocation's deadline`);
    this.name = "OrderBusyError";
    this.key = key;
  }
}

/**
 * A secret could not be read from Secrets Manager (missing, no value set yet, access denied,
 * unreachable): names the variable and the secret's ID, keeps the SDK's error as `cause`.
 * `notSet` is true when Secrets Manager answered that the secret or its current value does not
 * exist (`ResourceNotFoundException`): a stage deployed whose value nobody has put yet, which a
 * run reports as `not-configured` rather than as a failure.
 */
export class SecretUnreadableError extends UseCaseError {
  readonly variable: string;
  readonly secretId: string;
  readonly notSet: boolean;
  constructor(variable: string, secretId: string, options?: { cause?: unknown }) {
    const reason = options?.cause instanceof Error ? `: ${options.cause.message}` : "";
    super("SECRET_UNREADABLE", `${variable}: could not read secret ${secretId}${reason}`, options);
    this.name = "SecretUnreadableError";
    this.variable = variable;
    this.secretId = secretId;
    this.notSet = causes(options?.cause).some((e) => e.name === "ResourceNotFoundException");
  }
}

/**
 * The secret without a value behind an error (itself, or a cause: a KEB scan's auth error), if
 * that is what it is: a run then ends `not-configured` rather than failed.
 */
export function secretNotSet(err: unknown): SecretUnreadableError | undefined {
  const found = causes(err).find((e) => e instanceof SecretUnreadableError);
  return found instanceof SecretUnreadableError && found.notSet ? found : undefined;
}

/** An error and its causes, outermost first (Powertools wraps the SDK's error in its own). */
function causes(err: unknown): Error[] {
  const chain: Error[] = [];
  for (let e = err; e instanceof Error && chain.length < 8; e = e.cause) chain.push(e);
  return chain;
}

const describe = (problems: readonly Problem[]): string =>
  problems.map((p) => `${p.path}: ${p.message}`).join("; ");

/**
 * The one formatter of zod issues: each issue's path and message, never the value it refused
 * (a refused value may be a secret). A field absent from `input` "is required"; zod does not keep
 * the input in its issues, so absence is read from `input` itself.
 */
export function problemsOf(error: ZodError, input: unknown): Problem[] {
  return error.issues.map((i) => ({
    path: i.path.length ? i.path.map(String).join(".") : "(input)",
    message: i.code === "invalid_type" && valueAt(input, i.path) === undefined ? "is required" : i.message,
  }));
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** Parses environment-style config with a zod schema, or throws `ConfigError` naming the variables. */
export function parseConfig<T>(schema: ZodType<T>, env: Record<string, string | undefined>): T {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  throw new ConfigError(problemsOf(parsed.error, env));
}

/** Parses an event or query with a zod schema, or throws `RunInputError` naming every bad field. */
export function parseInput<T>(schema: ZodType<T>, input: unknown): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new RunInputError(problemsOf(parsed.error, input));
}
