import { createHmac, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { answerFault, type HttpFault } from "./http-fault.ts";
import { forTheFile, onLoopback } from "./loopback.ts";

// A PagerDuty Events API v2 on loopback: `POST /v2/enqueue` refused as PagerDuty refuses an
// invalid event (400 `{ status: "invalid event", message, errors }`), and alerts kept by dedup
// key as PagerDuty keeps them: a trigger opens an alert or is added to the one open under its
// key (an acknowledged one stays acknowledged), an acknowledge acknowledges the open one, a
// resolve closes it, a trigger after the resolve opens a new one, and an acknowledge or a resolve
// with no alert open is accepted and changes nothing.
//
// And PagerDuty's v3 webhooks back (`pagerDutyDelivery`): a delivery as PagerDuty sends one,
// signed as its developer docs ("Verifying Signatures") say.

/** The routing key the stand-in takes: 32 characters, as PagerDuty's, searched for in logs. */
export const PAGERDUTY_ROUTING_KEY = "R0uT1nGkEysEcReT0123456789abcdef";

/**
 * One answer the stand-in gives instead of taking the next event (which it then does not keep):
 * a status (with a body, a `Retry-After`, or half its body before the connection drops), or a
 * connection dropped before any answer.
 */
type PagerDutyFault = HttpFault | { drop: true };

/** An alert as PagerDuty keeps it: opened by a trigger, closed by a resolve. */
interface FakeAlert {
  dedupKey: string;
  status: "triggered" | "acknowledged" | "resolved";
  /** The trigger that opened it and every trigger added to it since, in order. */
  triggers: Array<Record<string, unknown>>;
  /** Every event action applied to it, in order (`trigger` first). */
  actions: Array<"trigger" | "acknowledge" | "resolve">;
}

/** An event as the stand-in saw it, taken or not. */
interface PagerDutyAttempt {
  at: number;
  /** 0: the stand-in dropped the connection. */
  status: number;
  event: unknown;
  errors?: string[];
}

export interface FakePagerDuty {
  /** The Events API's origin (`PAGERDUTY_EVENTS_URL`). */
  url: string;
  faults: PagerDutyFault[];
  attempts: PagerDutyAttempt[];
  alerts: FakeAlert[];
  /** The alert open under `dedupKey`, if any. */
  open(dedupKey: string): FakeAlert | undefined;
  /** Forgets every alert, attempt and fault. */
  reset(): void;
  close(): Promise<void>;
}

const SEVERITIES = ["critical", "error", "warning", "info"];
const ACTIONS = ["trigger", "acknowledge", "resolve"];
const MAX_EVENT_BYTES = 512_000;

/** Starts the stand-in on 127.0.0.1. */
async function startFakePagerDuty(): Promise<FakePagerDuty> {
  const faults: PagerDutyFault[] = [];
  const attempts: PagerDutyAttempt[] = [];
  const alerts: FakeAlert[] = [];
  const open = (key: string): FakeAlert | undefined =>
    alerts.find((a) => a.dedupKey === key && a.status !== "resolved");

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const answer = (status: number, body: object, event: unknown, errors?: string[]): void => {
      attempts.push({ at: Date.now(), status, event, ...(errors ? { errors } : {}) });
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    };
    if (req.method !== "POST" || req.url !== "/v2/enqueue") {
      answer(404, { status: "not found" }, null);
      return;
    }
    let event: unknown;
    try {
      event = JSON.parse(raw.toString("utf8"));
    } catch {
      answer(400, invalid(["Could not parse the request body as JSON"]), null, ["invalid JSON"]);
      return;
    }
    const fault = faults.shift();
    if (fault && "drop" in fault) {
      attempts.push({ at: Date.now(), status: 0, event });
      res.socket?.destroy();
      return;
    }
    if (fault) {
      attempts.push({ at: Date.now(), status: fault.status, event });
      const body =
        fault.body ?? JSON.stringify({ status: "throttle event", message: "Requests are throttled" });
      answerFault(res, { ...fault, body }, "application/json");
      return;
    }
    const errors = raw.length > MAX_EVENT_BYTES ? [`event of ${raw.length} bytes, more than 512000`] : [];
    errors.push(...problems(event));
    if (errors.length) {
      answer(400, invalid(errors), event, errors);
      return;
    }
    const e = event as { event_action: string; dedup_key?: string };
    const key = e.dedup_key ?? randomUUID().replace(/-/g, "");
    const alert = open(key);
    if (e.event_action === "trigger") {
      if (alert) {
        alert.triggers.push(event as Record<string, unknown>);
        alert.actions.push("trigger");
      } else
        alerts.push({
          dedupKey: key,
          status: "triggered",
          triggers: [event as Record<string, unknown>],
          actions: ["trigger"],
        });
    } else if (alert) {
      alert.status = e.event_action === "resolve" ? "resolved" : "acknowledged";
      alert.actions.push(e.event_action as "acknowledge" | "resolve");
    }
    answer(202, { status: "success", message: "Event processed", dedup_key: key }, event);
  };

  const server = createServer((req, res) => void handle(req, res));
  const { origin, close } = await onLoopback(server);
  return {
    url: origin,
    faults,
    attempts,
    alerts,
    open,
    reset: () => {
      faults.length = 0;
      attempts.length = 0;
      alerts.length = 0;
    },
    close,
  };
}

/** A PagerDuty stand-in for one test file, reset before each test. */
export function useFakePagerDuty(): { pagerduty: FakePagerDuty } {
  return forTheFile("pagerduty", startFakePagerDuty, (started) => started.reset());
}

const invalid = (errors: string[]) => ({
  status: "invalid event",
  message: "Event object is invalid",
  errors,
});

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const length = (s: string): number => Array.from(s).length;

/** Why PagerDuty would refuse this event; empty when it would take it. */
function problems(event: unknown): string[] {
  if (!isObj(event)) return ["the event is not an object"];
  const out: string[] = [];
  if (event.routing_key !== PAGERDUTY_ROUTING_KEY) out.push("'routing_key' is invalid");
  if (typeof event.event_action !== "string" || !ACTIONS.includes(event.event_action))
    out.push("'event_action' is invalid (must be one of trigger, acknowledge, resolve)");
  const key = event.dedup_key;
  if (key === undefined) {
    if (event.event_action !== "trigger") out.push("'dedup_key' is required for acknowledge and resolve");
  } else if (typeof key !== "string" || key === "" || length(key) > 255) {
    out.push("'dedup_key' must be a string of 1 to 255 characters");
  }
  if (event.event_action === "trigger") out.push(...payloadProblems(event.payload));
  if (event.links !== undefined) {
    const links = Array.isArray(event.links) ? event.links : [null];
    if (links.some((l) => !isObj(l) || typeof l.href !== "string"))
      out.push("'links' must have an 'href' each");
  }
  return out;
}

function payloadProblems(payload: unknown): string[] {
  if (!isObj(payload)) return ["'payload' is required for trigger"];
  const out: string[] = [];
  const { summary, source, severity, timestamp } = payload;
  if (typeof summary !== "string" || summary === "") out.push("'payload.summary' is required");
  else if (length(summary) > 1024) out.push("'payload.summary' is longer than 1024 characters");
  if (typeof source !== "string" || source === "") out.push("'payload.source' is required");
  if (typeof severity !== "string" || !SEVERITIES.includes(severity))
    out.push("'payload.severity' is invalid (must be one of critical, error, warning, info)");
  if (timestamp !== undefined && (typeof timestamp !== "string" || Number.isNaN(Date.parse(timestamp))))
    out.push("'payload.timestamp' is not an ISO 8601 timestamp");
  for (const field of ["component", "group", "class"])
    if (payload[field] !== undefined && typeof payload[field] !== "string")
      out.push(`'payload.${field}' must be a string`);
  if (payload.custom_details !== undefined && !isObj(payload.custom_details))
    out.push("'payload.custom_details' must be an object");
  return out;
}

// PagerDuty's v3 webhooks, as its developer docs describe them ("v3 Overview", "Verifying
// Signatures", "Behavior"): a POST whose JSON body is one `event` (`id`, `event_type`,
// `resource_type`, `occurred_at`, `agent`, `client`, `data`: an incident for incident events),
// with the headers `Content-Type: application/json`, `User-Agent: PagerDuty-Webhook/V3.0`,
// `X-Webhook-Id` (the same for each retry of a delivery), `X-Webhook-Subscription` and
// `X-PagerDuty-Signature`: "computed as an HMAC of the payload body using a SHA-256 hash
// function. This is performed for each signing secret and the results are concatenated using
// comma separation", each `v1=<hex>`.

/** The webhook subscription's signing secret the tests use (PagerDuty's are 64 characters). */
export const PAGERDUTY_WEBHOOK_SECRET = "whsecRETpagerduty0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJ";
/** The PagerDuty service the stage's incidents are paged on. */
export const PAGERDUTY_SERVICE_ID = "PF9KMXH";

/** A webhook delivery as PagerDuty sends it: its headers (names as sent) and its raw body. */
export interface PagerDutyDelivery {
  headers: Record<string, string>;
  body: string;
}

interface DeliveryOptions {
  /** `incident.acknowledged` by default; `pagey.ping` is the test event PagerDuty sends. */
  eventType?: string;
  /** The incident's `incident_key`: the Events API v2 `dedup_key` that opened it; null: none. */
  incidentKey?: string | null;
  serviceId?: string;
  /** Who did it: a user by default; null, as PagerDuty sends for some events. */
  agent?: { id: string; summary: string; type?: string } | null;
  /** When it happened (`occurred_at`); now by default. */
  occurredAt?: Date;
  eventId?: string;
  /** The secrets it signs with: two during a rotation, each giving one `v1=` signature. */
  secrets?: readonly string[];
}

/** One v3 webhook delivery of an incident event (or PagerDuty's `pagey.ping`), signed as PagerDuty signs it. */
export function pagerDutyDelivery(options: DeliveryOptions = {}): PagerDutyDelivery {
  const eventType = options.eventType ?? "incident.acknowledged";
  const serviceId = options.serviceId ?? PAGERDUTY_SERVICE_ID;
  const agent =
    options.agent === undefined
      ? { id: "PLH1HKV", summary: "Alice Oncall", type: "user_reference" }
      : options.agent;
  const eventId = options.eventId ?? randomUUID();
  const incident = {
    id: "PGR0VU2",
    type: "incident",
    self: "https://api.pagerduty.com/incidents/PGR0VU2",
    html_url: "https://acme.pagerduty.com/incidents/PGR0VU2",
    number: 2,
    status:
      { "incident.resolved": "resolved", "incident.acknowledged": "acknowledged" }[eventType] ?? "triggered",
    incident_key: options.incidentKey === undefined ? "inc-AAAAAAAAAAAAAAAAAAAAAAAA" : options.incidentKey,
    created_at: "2026-11-30T06:00:00Z",
    title: "[e2e] failing: 2 runtimes",
    service: {
      html_url: `https://acme.pagerduty.com/services/${serviceId}`,
      id: serviceId,
      self: `https://api.pagerduty.com/services/${serviceId}`,
      summary: "fleet-auditor",
      type: "service_reference",
    },
    assignees: [],
    escalation_policy: { id: "PUS0KTE", summary: "Default", type: "escalation_policy_reference" },
    teams: [],
    priority: null,
    urgency: "high",
    conference_bridge: null,
    resolve_reason: null,
  };
  const ping = { message: "Hello from your friend Pagey!", type: "ping" };
  const event = {
    event: {
      id: eventId,
      event_type: eventType,
      resource_type: eventType.startsWith("incident.") ? "incident" : "pagey",
      occurred_at: (options.occurredAt ?? new Date()).toISOString(),
      agent: agent
        ? {
            html_url: `https://acme.pagerduty.com/users/${agent.id}`,
            id: agent.id,
            self: `https://api.pagerduty.com/users/${agent.id}`,
            summary: agent.summary,
            type: agent.type ?? "user_reference",
          }
        : null,
      client: agent ? { name: "PagerDuty" } : null,
      data: eventType.startsWith("incident.") ? incident : ping,
    },
  };
  const body = JSON.stringify(event);
  return {
    headers: {
      "Content-Type": "application/json",
      "User-Agent": "PagerDuty-Webhook/V3.0",
      "X-Webhook-Id": randomUUID(),
      "X-Webhook-Subscription": "PXSUIZH",
      "X-PagerDuty-Signature": signatureHeader(body, options.secrets ?? [PAGERDUTY_WEBHOOK_SECRET]),
    },
    body,
  };
}

/** `X-PagerDuty-Signature` for a body: `v1=<hex HMAC-SHA256>` per secret, comma-separated. */
export function signatureHeader(body: string | Buffer, secrets: readonly string[]): string {
  return secrets.map((s) => `v1=${createHmac("sha256", s).update(body).digest("hex")}`).join(",");
}
