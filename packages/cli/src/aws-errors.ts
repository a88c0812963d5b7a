import type { LinkedVariables } from "./linked-resources.ts";

/** The variables that send a part of the CLI to AWS instead of the embedded store. */
const AWS_PARTS = [
  "AUDIT_TABLE",
  "STATUS_TABLE",
  "ALERT_TOPIC_ARN",
  "CRITICAL_TOPIC_ARN",
  "INCIDENT_TOPIC_ARN",
] as const;

/**
 * What to do about an AWS SDK error that means the CLI is pointed at AWS without what AWS needs
 * (no region, no credentials, credentials expired or refused, a table or topic not found), as a
 * sentence naming the variables to set or unset; undefined for any other error. The SDK's own
 * texts ("Region is missing", "Could not load credentials from any providers") name neither.
 */
export function explainAwsError(err: unknown, config: LinkedVariables): string | undefined {
  const problem = awsProblem(err);
  if (!problem) return undefined;
  const set = AWS_PARTS.filter((v) => config.vars[v]);
  const fromSst = set.filter((v) => config.linked.includes(v));
  const where =
    set.length === 0
      ? "AWS"
      : `AWS (${set.join(", ")}${fromSst.length ? `; ${fromSst.join(", ")} from sst shell's linked resources` : ""})`;
  const embedded =
    fromSst.length > 0
      ? "run it outside sst shell (or set those variables empty) to use the embedded store instead"
      : set.length > 0
        ? `unset ${set.join(", ")} to use the embedded store instead`
        : "";
  return `${problem.replace("{where}", where)}${embedded ? `; or ${embedded}` : ""}`;
}

/** AWS's names for credentials it refuses, and for expired ones. */
const REFUSED = new Set(["UnrecognizedClientException", "InvalidSignatureException", "InvalidClientTokenId"]);
const EXPIRED = new Set(["ExpiredToken", "ExpiredTokenException", "TokenRefreshRequired"]);

function awsProblem(err: unknown): string | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    // Thrown by the SDK before any call: its resolvers' texts.
    if (/^Region is missing/.test(e.message))
      return "{where} needs a region: set AWS_REGION, or AWS_PROFILE naming a profile with a region";
    if (e.name === "CredentialsProviderError" || /^Could not load credentials/.test(e.message))
      return "{where} needs credentials: set AWS_PROFILE (then aws sso login if it uses SSO), or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY";
    // AWS's answers: only an SDK service exception (it carries $metadata) is read by its name.
    if (!("$metadata" in e)) continue;
    if (EXPIRED.has(e.name))
      return "{where}: the credentials have expired: renew them (aws sso login, or new keys for AWS_PROFILE)";
    if (REFUSED.has(e.name))
      return "{where} refused the credentials: check AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY";
    if (e.name === "ResourceNotFoundException")
      return "{where}: the table does not exist in this account and region: check AUDIT_TABLE, STATUS_TABLE and AWS_REGION";
    if (e.name === "NotFoundException" || e.name === "NotFound")
      return "{where}: the topic does not exist in this account and region: check ALERT_TOPIC_ARN, CRITICAL_TOPIC_ARN, INCIDENT_TOPIC_ARN and AWS_REGION";
    if (e.name === "AccessDeniedException" || e.name === "AuthorizationErrorException")
      return "{where} denied the call: the credentials lack a permission the command needs";
  }
  return undefined;
}
