import { managedSecretReader } from "@fleet-auditor/store";
import type { SecretReader } from "@fleet-auditor/use-cases";

/**
 * The store's Secrets Manager reader (`managedSecretReader`: cached reads, `fresh` after a
 * refusal), its SDK client built at the first read instead of at cold start: a process whose
 * secrets are all values of their own (a static KEB token, a local run) never builds one, and a
 * process that reads an ARN builds it once, within its first run's deadline.
 */
export function secretsOnFirstRead(): SecretReader {
  let read: SecretReader | undefined;
  return (secretId, options) => {
    read ??= managedSecretReader();
    return read(secretId, options);
  };
}
