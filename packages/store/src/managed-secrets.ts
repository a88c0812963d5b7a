import { SecretsProvider } from "@aws-lambda-powertools/parameters/secrets";
import { SecretsManagerClient } from "@aws-sdk/client-secrets-manager";

/** Options of `managedSecretReader`. */
export interface ManagedSecretsOptions {
  /** Built from the SDK's usual configuration (region, credentials, `AWS_ENDPOINT_URL_*`) when omitted. */
  client?: SecretsManagerClient;
  /**
   * How long a value read is used before Secrets Manager is asked again, seconds: the longest a
   * rotated value waits to be picked up by a warm function. Default 300.
   */
  maxAgeSeconds?: number;
}

/**
 * Reads secrets from AWS Secrets Manager (`GetSecretValue`, the `AWSCURRENT` version) through
 * Powertools Parameters' Secrets Manager provider, which caches each value for `maxAgeSeconds`;
 * `fresh` asks Secrets Manager again at once (`forceFetch`), e.g. after the value was refused.
 * Build it once per cold start: its cache lives as long as it does. Only string secrets are
 * taken: a binary secret, or one with no value set yet, is an error naming the secret, never
 * echoing what it holds.
 *
 * @example
 * const read = managedSecretReader();
 * const secret = await read(process.env.KEB_CLIENT_SECRET_ARN, { fresh: false });
 */
export function managedSecretReader(
  options: ManagedSecretsOptions = {},
): (secretId: string, options: { fresh: boolean }) => Promise<string> {
  const provider = new SecretsProvider({ awsSdkV3Client: options.client ?? new SecretsManagerClient({}) });
  const maxAge = options.maxAgeSeconds ?? 300;
  return async (secretId, { fresh }) => {
    const value = await provider.get(secretId, { maxAge, forceFetch: fresh });
    if (typeof value !== "string")
      throw new Error(`secret ${secretId} holds ${value === undefined ? "no value" : "a binary value"}`);
    return value;
  };
}
