import { type PagerDutyAction, readPagerDutyEvent } from "./pagerduty-event.ts";
import { type SignatureRefusal, verifyPagerDutySignature } from "./pagerduty-signature.ts";

/** One HTTP request as a Lambda function URL hands it over (API Gateway's payload format 2.0). */
export interface WebhookRequest {
  method: string;
  /** Header names in lower case, as function URLs give them. */
  headers: Readonly<Record<string, string | undefined>>;
  body?: string;
  /** The body is base64 of the bytes sent (function URLs encode what is not text). */
  isBase64Encoded: boolean;
}

/** What the acknowledgement core answers (`IncidentActionResult`'s part read here). */
interface ActResult {
  outcome: "applied" | "already" | "unknown";
  keys: readonly string[];
}

/** What answering a PagerDuty delivery needs. */
export interface PagerDutyWebhookDeps {
  /** The subscription's signing secret; `fresh` reads it past any cache (it may have been rotated). */
  secret: (options?: { fresh?: boolean }) => Promise<string>;
  /** The acknowledgement core (`actOnIncident` with its dependencies). */
  act: (action: PagerDutyAction) => Promise<ActResult>;
  /** The PagerDuty services whose incidents this stage pages: any other's are refused. */
  serviceIds: readonly string[];
  /** How old an event may be (by its `occurred_at`) and still be applied. */
  maxAgeMs: number;
  now: () => number;
}

/** Why a delivery is refused (answered 4xx), or acknowledged 200 and not acted on; each is counted. */
type WebhookRefusal =
  | "method"
  | "too-large"
  | SignatureRefusal
  | "malformed"
  | "stale"
  | "other-service"
  | "unknown-incident";

/**
 * The answer to one delivery: its HTTP status and body, and what became of it, for the log and
 * the metrics. `refused`: counted in `Refused` (a 4xx, or an acknowledgement of an incident
 * unknown here, answered 200 so that PagerDuty does not retry it); `ignored`: counted in
 * `Ignored` (an event type not acted on, the auditor's own notice, a resolve of an incident
 * already ended here); `acted`: the core's outcome.
 */
export type WebhookAnswer = { statusCode: number; body: string } & (
  | { result: "refused"; reason: WebhookRefusal; problem?: string; eventId?: string }
  | { result: "ignored"; why: string; eventId: string }
  | {
      result: "acted";
      outcome: "applied" | "already";
      action: PagerDutyAction;
      keys: readonly string[];
      eventId: string;
    }
);

/**
 * PagerDuty guarantees delivery of webhooks up to 55 KB (56,320 bytes); bigger ones are sent on a
 * best-effort basis, and an incident event is a few KB. The cap is checked before anything is
 * decoded or hashed.
 */
export const MAX_BODY_BYTES = 64 * 1024;
/** A clock this far behind PagerDuty's still takes its events; further, they are refused as stale. */
const MAX_AHEAD_MS = 5 * 60_000;
/** A forged signature may send the secret's read past its cache, at most once a minute. */
const FRESH_READ_EVERY_MS = 60_000;

const json = (statusCode: number, body: object) => ({ statusCode, body: JSON.stringify(body) });
const refused = (
  statusCode: number,
  reason: WebhookRefusal,
  extra: { problem?: string; eventId?: string } = {},
): WebhookAnswer => ({ ...json(statusCode, { refused: reason }), result: "refused", reason, ...extra });
// Answered 200 (PagerDuty retries anything else, for about 20 minutes), and counted as refused.
const unknownIncident = (eventId: string): WebhookAnswer => ({
  ...json(200, { outcome: "unknown" }),
  result: "refused",
  reason: "unknown-incident",
  eventId,
});

/**
 * The PagerDuty v3 webhook endpoint, as named stages:
 * 1. only a POST whose body is at most `MAX_BODY_BYTES` is read (405, 413);
 * 2. its `X-PagerDuty-Signature` is verified over the raw bytes (`verifyPagerDutySignature`),
 *    with the secret read afresh (at most once a minute) when none matched, in case it was
 *    rotated (401);
 * 3. only then is the body parsed (`readPagerDutyEvent`; 400);
 * 4. an event whose `occurred_at` is older than `maxAgeMs` is refused as a replay (400): PagerDuty
 *    signs the body, `occurred_at` with it, so an old delivery cannot be made young again;
 * 5. an incident of a service other than the stage's is refused (403), before anything acts;
 * 6. the core acts (`act`), and a second delivery of the same event is its `already`.
 * Everything else is answered 200: PagerDuty retries what is not 2xx, and an event type not acted
 * on or an incident unknown here must not be retried for ever. An error of the core throws: the
 * function URL answers 5xx, and PagerDuty retries.
 */
export function pagerDutyWebhook(
  deps: PagerDutyWebhookDeps,
): (request: WebhookRequest) => Promise<WebhookAnswer> {
  let lastFreshRead = Number.NEGATIVE_INFINITY;
  const verify = async (body: Uint8Array, header: string | undefined): Promise<true | SignatureRefusal> => {
    const verdict = verifyPagerDutySignature(body, header, await deps.secret());
    if (verdict !== "signature-mismatch" || deps.now() - lastFreshRead < FRESH_READ_EVERY_MS) return verdict;
    lastFreshRead = deps.now();
    return verifyPagerDutySignature(body, header, await deps.secret({ fresh: true }));
  };

  return async (request) => {
    if (request.method !== "POST") return refused(405, "method");
    const body = rawBody(request);
    if (!body) return refused(413, "too-large");
    const verdict = await verify(body, request.headers["x-pagerduty-signature"]);
    if (verdict !== true) return refused(401, verdict);

    const event = readPagerDutyEvent(body);
    if (event.kind === "malformed") return refused(400, "malformed", { problem: event.problem });
    const { eventId } = event;
    const age = deps.now() - event.occurredAt;
    if (age > deps.maxAgeMs || -age > MAX_AHEAD_MS) return refused(400, "stale", { eventId });
    if (event.serviceId !== undefined && !deps.serviceIds.includes(event.serviceId))
      return refused(403, "other-service", { eventId });
    if (event.kind === "ignored") {
      if (event.why === "no-key" && event.eventType !== "incident.resolved") return unknownIncident(eventId);
      return { ...json(200, { outcome: "ignored" }), result: "ignored", why: event.why, eventId };
    }

    const { action } = event;
    const { outcome, keys } = await deps.act(action);
    if (outcome !== "unknown")
      return { ...json(200, { outcome }), result: "acted", outcome, action, keys, eventId };
    // A resolve of an incident that ended here is the echo of the pager's own resolve: normal.
    if (action.kind === "resolvedInPager")
      return { ...json(200, { outcome: "ignored" }), result: "ignored", why: "ended", eventId };
    return unknownIncident(eventId);
  };
}

/** The request's bytes as sent, or undefined past the cap (checked before decoding). */
function rawBody(request: WebhookRequest): Buffer | undefined {
  const text = request.body ?? "";
  // Base64 takes 4 characters per 3 bytes; UTF-8, at least one byte per character.
  const most = request.isBase64Encoded ? Math.ceil(MAX_BODY_BYTES / 3) * 4 : MAX_BODY_BYTES;
  if (text.length > most) return undefined;
  const bytes = Buffer.from(text, request.isBase64Encoded ? "base64" : "utf8");
  return bytes.length > MAX_BODY_BYTES ? undefined : bytes;
}
