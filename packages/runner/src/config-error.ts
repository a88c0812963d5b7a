import type { ZodType } from "zod";

/** Configuration that cannot work; the message names each variable and what is wrong with it. */
export class ConfigError extends Error {
  readonly code = "CONFIG";
  readonly variables: string[];
  constructor(problems: Array<{ variable: string; message: string }>) {
    super(`invalid configuration: ${problems.map((p) => `${p.variable}: ${p.message}`).join("; ")}`);
    this.name = "ConfigError";
    this.variables = problems.map((p) => p.variable);
  }
}

/** Parses environment-style config with a zod schema, or throws `ConfigError` naming the variables. */
export function parseConfig<T>(schema: ZodType<T>, env: Record<string, string | undefined>): T {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  throw new ConfigError(
    parsed.error.issues.map((i) => ({
      variable: String(i.path[0] ?? "(config)"),
      // Never echo the value: it may be a secret.
      message: i.code === "invalid_type" && i.input === undefined ? "is required" : i.message,
    })),
  );
}
