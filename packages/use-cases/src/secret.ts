import { optional, string, type ZodType } from "zod";
import { ConfigError, problemsOf, SecretUnreadableError } from "./errors.ts";

/**
 * Where a secret comes from: its value in a variable (local runs, the embedded stack, tests), or
 * the ID (ARN or name) of a Secrets Manager secret in `<variable>_ARN` (deployed functions, and
 * the CLI when given one), read when first used and again when it may have been rotated.
 */
export type SecretRef =
  | { variable: string; value: string }
  | { variable: string; secretId: string; check: ZodType<string> };

/**
 * Reads a secret where it is kept: through a cache with a maximum age, or `fresh` (bypassing the
 * cache, e.g. after the value was refused). The store's `managedSecretReader` is the Secrets
 * Manager one.
 */
export type SecretReader = (secretId: string, options: { fresh: boolean }) => Promise<string>;

/** A secret's value, now or re-read (`fresh`) where it is kept; a fixed value re-reads as itself. */
export type SecretValue = (options?: { fresh?: boolean }) => Promise<string>;

/** The `<variable>_ARN` schema: a Secrets Manager secret's ARN or name. */
export const SecretIdSchema = optional(
  string().regex(/^[\w/+=.@:-]{1,2048}$/, "expected a Secrets Manager secret ARN (or name)"),
);

/**
 * The secret a variable pair describes, or undefined when neither is set: `value` (the variable
 * itself, already checked) wins over `secretId` (its `_ARN`), so a local run overrides the stage's.
 * `check` is what the value read from Secrets Manager must pass, as the variable would.
 */
export function secretRef(
  variable: string,
  value: string | undefined,
  secretId: string | undefined,
  check: ZodType<string>,
): SecretRef | undefined {
  if (value !== undefined) return { variable, value };
  if (secretId !== undefined) return { variable, secretId, check };
  return undefined;
}

/**
 * The secret a reference names, as a function that reads it. A value read from Secrets Manager
 * is checked as the variable would be: a problem is named after `<variable>_ARN`, its value never
 * repeated; a read that fails is a `SecretUnreadableError` naming the variable and the secret's
 * ID. Without a reader, a reference to Secrets Manager fails here, at cold start.
 */
export function secretOf(ref: SecretRef, read: SecretReader | undefined): SecretValue {
  if ("value" in ref) {
    const { value } = ref;
    return async () => value;
  }
  const variable = `${ref.variable}_ARN`;
  if (!read) throw new ConfigError([{ path: variable, message: "this process cannot read Secrets Manager" }]);
  return async (options) => {
    let raw: string;
    try {
      raw = await read(ref.secretId, { fresh: options?.fresh ?? false });
    } catch (err) {
      throw new SecretUnreadableError(variable, ref.secretId, { cause: err });
    }
    const parsed = ref.check.safeParse(raw);
    if (!parsed.success)
      throw new ConfigError(
        problemsOf(parsed.error, raw).map((p) => ({
          path: variable,
          message: `the secret's value ${p.message}`,
        })),
      );
    return parsed.data;
  };
}

/**
 * Something built from a secret's value (a webhook client, an API client), built again only when
 * the value changed: a rotated secret is used from the next read on, without a new cold start.
 */
export function rotating<T>(secret: SecretValue, build: (value: string) => T): SecretBuilt<T> {
  let built: { value: string; thing: T } | undefined;
  return async (options) => {
    const value = await secret(options);
    if (built?.value !== value) built = { value, thing: build(value) };
    return built.thing;
  };
}

/** What `rotating` returns: the thing built from the secret's current value. */
export type SecretBuilt<T> = (options?: { fresh?: boolean }) => Promise<T>;

/**
 * Uses what `built` gives, one use at a time, reading the secret afresh when the last use failed
 * (its value may have been rotated, and refused): a Lambda retry of a failed invocation then
 * uses a rotated value without waiting out the cache.
 */
export function freshAfterFailure<T>(
  built: SecretBuilt<T>,
): <R>(use: (thing: T) => Promise<R>) => Promise<R> {
  let failed = false;
  return async (use) => {
    const thing = await built({ fresh: failed });
    failed = true;
    const result = await use(thing);
    failed = false;
    return result;
  };
}
