import { createHmac, timingSafeEqual } from "node:crypto";
import type { InboundRequest } from "./inbound-request.ts";
import { type Refusal, refuse } from "./refusal.ts";

// Slack's request signing, as "Verifying requests from Slack" (docs.slack.dev) specifies it:
// Slack sends `X-Slack-Request-Timestamp` (Unix seconds) and `X-Slack-Signature`, which is `v0=`
// and the hex HMAC-SHA256, keyed with the app's signing secret, of the basestring `v0:`, the
// timestamp as sent, `:`, and the raw body ("the version number right now is always v0"). The
// timestamp guards against replays: Slack's own example refuses one that differs "from local time
// by more than five minutes". Both are checked here before anything of the body is parsed.

/** How far a timestamp may be from now, either way: Slack's five minutes. */
export const SLACK_TIMESTAMP_TOLERANCE_SECONDS = 300;

// One value each: a header sent twice arrives joined by a comma, which neither pattern admits.
const TIMESTAMP = /^[0-9]{1,12}$/;
const SIGNATURE = /^v0=[0-9a-f]{64}$/;

/**
 * Whether a request is Slack's: undefined when it is, else the refusal. `unsigned`: a header missing,
 * repeated or malformed (a `v1=` or any other scheme than `v0`, a hex of another length); `stale`:
 * a timestamp more than `toleranceSeconds` from `nowSeconds`, in the past (a replay) or the future;
 * `bad-signature`: any other signature than the secret's over this timestamp and body, compared in
 * constant time (`timingSafeEqual` on two 32-byte digests).
 *
 * Pure: the clock is passed in. The body is hashed whole; cap it before (`inboundRequest`).
 *
 * @example
 * ```ts
 * const refusal = verifySlackSignature(request, { signingSecret, nowSeconds: Math.floor(Date.now() / 1000) });
 * if (refusal) return answer(refusal);
 * ```
 */
export function verifySlackSignature(
  request: InboundRequest,
  options: { signingSecret: string; nowSeconds: number; toleranceSeconds?: number },
): Refusal | undefined {
  const timestamp = request.headers.get("x-slack-request-timestamp");
  const signature = request.headers.get("x-slack-signature");
  if (timestamp === undefined || signature === undefined)
    return refuse("unsigned", "X-Slack-Request-Timestamp or X-Slack-Signature is missing");
  if (!TIMESTAMP.test(timestamp)) return refuse("unsigned", "X-Slack-Request-Timestamp is not one Unix time");
  if (!SIGNATURE.test(signature))
    return refuse("unsigned", "X-Slack-Signature is not one v0= signature (64 hex digits)");
  const tolerance = options.toleranceSeconds ?? SLACK_TIMESTAMP_TOLERANCE_SECONDS;
  if (Math.abs(options.nowSeconds - Number(timestamp)) > tolerance)
    return refuse("stale", `X-Slack-Request-Timestamp is more than ${tolerance} s from now`);
  const expected = createHmac("sha256", options.signingSecret)
    .update(`v0:${timestamp}:`)
    .update(request.body)
    .digest();
  const given = Buffer.from(signature.slice(3), "hex");
  // Both 32 bytes (the pattern holds the given one to 64 hex digits): timingSafeEqual's condition.
  if (!timingSafeEqual(expected, given))
    return refuse("bad-signature", "X-Slack-Signature does not match the body and timestamp");
  return undefined;
}
