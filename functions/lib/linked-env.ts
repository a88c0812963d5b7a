import { Resource } from "sst";

/**
 * The process environment, with SST-linked secrets filled in under the given variable names
 * (deployed, secrets arrive encrypted through `link`, not as plain environment variables).
 * A variable already set wins, so local runs and tests need no SST at all.
 */
export function linkedEnv(secrets: Record<string, string>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const [variable, resource] of Object.entries(secrets)) {
    if (env[variable] !== undefined) continue;
    try {
      env[variable] = (Resource as unknown as Record<string, { value?: string }>)[resource]?.value;
    } catch {
      // Not linked (local run): the schema reports the variable as missing.
    }
  }
  return env;
}
