import { createHmac, timingSafeEqual } from "node:crypto";

// PagerDuty's v3 webhooks, as its developer docs ("Verifying Signatures") describe them: the
// `X-PagerDuty-Signature` header holds one or more signatures, comma-separated ("Multiple
// signatures may be present to allow for a zero-downtime secret rotation"); the current version
// is `v1`, an HMAC-SHA256 of the payload body (the unaltered raw body) with the subscription's
// secret, hex-encoded; a delivery is authentic when at least one `v1` signature matches, compared
// in constant time. Signatures of another version are not ours to judge: they are skipped.

/** Why a delivery's signature is refused; each is answered 401 and counted. */
export type SignatureRefusal =
  /** No `X-PagerDuty-Signature` header, or an empty one. */
  | "signature-missing"
  /** A header that is not a list of `version=value` (too long, too many, a `v1` that is not 64 hex digits). */
  | "signature-malformed"
  /** Signatures of other versions only: nothing this code can check. */
  | "signature-unsupported"
  /** `v1` signatures, none of which is the body's under the secret. */
  | "signature-mismatch";

/** A header longer than this is not PagerDuty's (two signatures are 137 characters). */
const MAX_HEADER_CHARS = 1_024;
/** More signatures than this are not a rotation. */
const MAX_SIGNATURES = 8;
const ENTRY = /^([A-Za-z0-9]{1,16})=(\S+)$/;
const V1_VALUE = /^[0-9a-fA-F]{64}$/;

/** The `v1` signatures a header lists, as 32-byte digests, or why the header is refused. */
function v1Signatures(header: string | undefined): Buffer[] | SignatureRefusal {
  if (header === undefined || header.trim() === "") return "signature-missing";
  if (header.length > MAX_HEADER_CHARS) return "signature-malformed";
  // Spaces around a comma are tolerated; a line break is never PagerDuty's, and is refused below.
  const entries = header.split(",").map((e) => e.replace(/^[ \t]+|[ \t]+$/g, ""));
  if (entries.length > MAX_SIGNATURES) return "signature-malformed";
  const digests: Buffer[] = [];
  for (const entry of entries) {
    const m = ENTRY.exec(entry);
    if (!m) return "signature-malformed";
    const [, version, value] = m as unknown as [string, string, string];
    if (version !== "v1") continue;
    if (!V1_VALUE.test(value)) return "signature-malformed";
    digests.push(Buffer.from(value, "hex"));
  }
  return digests.length > 0 ? digests : "signature-unsupported";
}

/**
 * Whether one of the header's `v1` signatures is the body's under `secret`: `true`, or why not.
 * Every listed signature is compared, each in constant time (`timingSafeEqual` over the two
 * 32-byte digests), so neither the time taken nor which one matched tells a forger anything.
 *
 * @example
 * ```ts
 * const verdict = verifyPagerDutySignature(rawBody, headers["x-pagerduty-signature"], secret);
 * if (verdict !== true) return { statusCode: 401 };
 * ```
 */
export function verifyPagerDutySignature(
  body: Uint8Array,
  header: string | undefined,
  secret: string,
): true | SignatureRefusal {
  const given = v1Signatures(header);
  if (!Array.isArray(given)) return given;
  const expected = createHmac("sha256", secret).update(body).digest();
  let matched = false;
  for (const digest of given) matched = timingSafeEqual(digest, expected) || matched;
  return matched ? true : "signature-mismatch";
}
