import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { answerFault, type HttpFault } from "./http-fault.ts";
import { forTheFile, onLoopback } from "./loopback.ts";

// A PagerDuty Events API v2 on loopback: `POST /v2/enqueue` refused as PagerDuty refuses an
// invalid event (400 `{ status: "invalid event", message, errors }`), and alerts kept by dedup
// key as PagerDuty keeps them: a trigger opens an alert or is added to the one open under its
// key, a resolve closes it, a trigger after the resolve opens a new one, and a resolve with no
// alert open is accepted and changes nothing.

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
      if (alert) alert.triggers.push(event as Record<string, unknown>);
      else alerts.push({ dedupKey: key, status: "triggered", triggers: [event as Record<string, unknown>] });
    } else if (alert) {
      alert.status = e.event_action === "resolve" ? "resolved" : "acknowledged";
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
