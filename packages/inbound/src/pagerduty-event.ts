import { oneLine } from "@fleet-auditor/audit";
import { z } from "zod";

// A PagerDuty v3 webhook's body, as PagerDuty's developer docs ("v3 Overview", "Webhook
// Payload") show it: one `event` with `id`, `event_type`, `resource_type`, `occurred_at` (ISO
// 8601), `agent` (who or what did it: a user, a service; null for some), `client` and `data`,
// whose shape depends on the type: `incident.acknowledged`, `incident.unacknowledged` and
// `incident.resolved` carry an `incident`. Read only after the signature was verified.

/** What a PagerDuty event asks of an incident here: `IncidentAction`'s kinds it can be. */
export type PagerDutyAction = {
  kind: "acknowledge" | "unacknowledge" | "resolvedInPager";
  /** The incident's key here: the Events API v2 `dedup_key` the pager function sent. */
  key: string;
  /** Who did it in PagerDuty: `pagerduty:PUSER12 (Alice)`, one line, bounded. */
  by: string;
};

/** A verified body, read: an action on an incident, an event this code does not act on, or a malformed body. */
export type PagerDutyEvent =
  | {
      kind: "act";
      eventId: string;
      occurredAt: number;
      /** The PagerDuty service the incident belongs to. */
      serviceId: string;
      action: PagerDutyAction;
    }
  | {
      kind: "ignored";
      eventId: string;
      occurredAt: number;
      /** The event's type, one line, bounded (it is logged). */
      eventType: string;
      /**
       * Why: another event type; one of the auditor's own notices (a health episode, a `notify
       * test`), no incident here; or an incident without a key that could be one of ours (opened
       * by hand, or by another integration), which is an unknown incident.
       */
      why: "event-type" | "own-notice" | "no-key";
      /** The incident's service, for an incident event. */
      serviceId?: string;
    }
  | { kind: "malformed"; problem: string };

const ACTIONS: ReadonlyMap<string, PagerDutyAction["kind"]> = new Map([
  ["incident.acknowledged", "acknowledge"],
  ["incident.unacknowledged", "unacknowledge"],
  ["incident.resolved", "resolvedInPager"],
]);

// PagerDuty's object IDs: `PLH1HKV`, longer in newer accounts.
const PagerDutyId = z.string().regex(/^[A-Za-z0-9]{1,32}$/, "expected a PagerDuty ID");

const EnvelopeSchema = z.object({
  event: z.object({
    id: z.string().regex(/^[\w.:-]{1,128}$/, "expected an event ID"),
    event_type: z.string().min(1).max(128),
    occurred_at: z.iso.datetime({ offset: true }),
    agent: z
      .object({
        id: PagerDutyId,
        summary: z.string().max(1_024).nullish(),
        type: z.string().max(64).nullish(),
      })
      .nullish(),
    data: z.unknown(),
  }),
});

// The `incident` data type. `incident_key` is, in PagerDuty's REST API reference, "The incident's
// de-duplication key": for an incident an Events API v2 trigger opened, the `dedup_key` the
// trigger carried (PagerDuty's own example looks an event's incident up by
// `incident_key=<dedup_key>`). The pager function sends `dedup_key` = the incident's key here, so
// this is the way back, without a REST API call (and its token) for the incident's alerts'
// `alert_key`. A service that groups alerts into incidents (intelligent, time or content-based
// grouping) makes incidents whose key is none of ours: those read as unknown (docs/deploy.md).
const IncidentSchema = z.object({
  id: PagerDutyId,
  type: z.literal("incident"),
  incident_key: z.string().max(1_024).nullish(),
  service: z.object({ id: PagerDutyId }),
});

// The auditor's own pages that are no incident here: health episodes and `notify test` triggers
// (render's health-notice.ts and test-notice.ts key them so). Acknowledging one in PagerDuty is
// normal, and nothing to act on or to count as a refusal.
const OWN_NOTICE_KEY = /^(hlt|tst)-/;
// Printable ASCII, as the pager function's keys are (`inc-` and 24 base64url characters): a key
// with a control character or a line break cannot be ours, and never reaches a log or the store.
const KEY = /^[!-~]{1,255}$/;

/**
 * Reads a verified webhook body: JSON, then the envelope, then, for the three incident events
 * acted on, the incident. A body that is not what PagerDuty documents is `malformed`, with a
 * problem that names fields, never their values.
 */
export function readPagerDutyEvent(body: Uint8Array): PagerDutyEvent {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    return { kind: "malformed", problem: "the body is not UTF-8 JSON" };
  }
  const envelope = EnvelopeSchema.safeParse(json);
  if (!envelope.success) return { kind: "malformed", problem: problemOf(envelope.error) };
  const { id: eventId, event_type, occurred_at, agent, data } = envelope.data.event;
  const occurredAt = Date.parse(occurred_at);
  const eventType = oneLine(event_type, 64);
  const kind = ACTIONS.get(event_type);
  if (!kind) return { kind: "ignored", eventId, occurredAt, eventType, why: "event-type" };
  const incident = IncidentSchema.safeParse(data);
  if (!incident.success) return { kind: "malformed", problem: problemOf(incident.error, "event.data") };
  const serviceId = incident.data.service.id;
  const key = incident.data.incident_key ?? "";
  if (!KEY.test(key)) return { kind: "ignored", eventId, occurredAt, eventType, why: "no-key", serviceId };
  if (OWN_NOTICE_KEY.test(key))
    return { kind: "ignored", eventId, occurredAt, eventType, why: "own-notice", serviceId };
  const by = agent
    ? `pagerduty:${agent.id}${agent.summary ? ` (${oneLine(agent.summary, 64)})` : ""}`
    : "pagerduty";
  return { kind: "act", eventId, occurredAt, serviceId, action: { kind, key, by } };
}

/** The first problems of a parse, by field path, never echoing a value. */
function problemOf(error: z.ZodError, under?: string): string {
  return error.issues
    .slice(0, 3)
    .map(
      (i) =>
        `${[under, ...i.path.map(String)].filter(Boolean).join(".") || "(body)"}: ${oneLine(i.message, 120)}`,
    )
    .join("; ");
}
