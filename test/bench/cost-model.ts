// The reference month of `npm run bench -- cost`, and what nothing local can count, as a model:
// pure arithmetic over what the bench measured, so that every assumption is a named constant here.
import type { Units } from "./consumed-capacity.ts";
import type { KebAuditMeasure } from "./cost-measure.ts";
import type { Price, PriceTable } from "./prices.ts";

/** The month AWS's calculator prices: 730 hours. */
export const HOURS = 730;

/** The issue's reference stage. */
export const REFERENCE = {
  runtimes: 100_000,
  flagged: { failing: 5_000, expired: 2_000 } as Record<string, number>,
  /** Runs a month: `failing` every 15 minutes, `expired` hourly, the applications audit every 5. */
  runs: { failing: HOURS * 4, expired: HOURS, applications: HOURS * 12 } as Record<string, number>,
  messagesPerSecond: 10,
  rejectedShare: 0.1,
  /** The applications audit reads the refused rows of its window (REJECTED_WINDOW_MINUTES). */
  rejectedWindowMinutes: 15,
};

/** What the model assumes where nothing local can count. Each is printed with the figures. */
export const ASSUMED = {
  /** Share of KEB audit runs that find no warm container (a run every 15 minutes or hourly). */
  coldShareKeb: 0.5,
  /** The applications audit runs every 5 minutes: its container is mostly warm. */
  coldShareApps: 0.1,
  /** Runs a day per KEB audit with news, each with this share of its flagged set firing or resolving. */
  newsRunsPerDay: 1,
  churnShare: 0.02,
  /** E-mail subscriptions on the Alerts topic. */
  emailSubscribers: 1,
  /** KEB's answer time per page (a real KEB, not the simulator), s. */
  kebPageSeconds: 0.25,
  /** Time per AWS request (DynamoDB, SNS) in a Lambda in the same region, s. */
  awsRequestSeconds: 0.01,
  /** Init of a new container (module load, config, clients), billed since August 2025, s. */
  initSeconds: 0.8,
  /** Handler overhead per invocation, s. */
  invokeSeconds: 0.05,
  /** The SQS event source mapping's batch window, s, and its batch size: at 10 msg/s a batch is 50. */
  batchWindowSeconds: 5,
  batchSize: 100,
  /** Concurrent status writes per batch (the ingest's bound). */
  writesInFlight: 8,
  /** Idle long polls of the event source mapping: 5 pollers, a 20 s poll each. */
  idlePollers: 5,
  longPollSeconds: 20,
  /** Lambda's platform log records per invocation (start, report) in JSON format, bytes. */
  platformLogBytes: 700,
  platformLogLines: 2,
  /** CloudWatch Logs bills 26 bytes per event on top of its text. */
  logEventOverhead: 26,
  /** Archived logs are compressed about this much, and kept a month (sst.config.ts). */
  logCompression: 0.15,
};

/** One priced line. */
export interface Line {
  group: "keb" | "apps-audit" | "app-path" | "observability";
  name: string;
  quantity: number;
  price: Price;
  /** `measured` when counted on the emulators or from the handlers' output, else `model`. */
  basis: "measured" | "model" | "measured x model";
}

export const cost = (l: Line): number => l.quantity * l.price.usd;

/** Units of one run of a KEB audit at the reference size, warm and new containers mixed. */
export function kebRunUnits(m: KebAuditMeasure, refFlagged: number): Units {
  // A new container reads the snapshot's fingerprint (about 30 bytes a key): that part grows with the flagged set.
  const scale = refFlagged / Math.max(1, m.flagged);
  const cold = {
    read: m.warm.units.read + (m.cold.units.read - m.warm.units.read) * scale,
    write: m.warm.units.write + (m.cold.units.write - m.warm.units.write) * scale,
  };
  const s = ASSUMED.coldShareKeb;
  return {
    read: (1 - s) * m.warm.units.read + s * cold.read,
    write: (1 - s) * m.warm.units.write + s * cold.write,
  };
}

/** What a month's news runs of a KEB audit add: units and SNS requests, per transition as measured. */
export function kebNews(
  m: KebAuditMeasure,
  refFlagged: number,
): { runs: number; transitions: number; units: Units; chunks: number; digests: number } {
  const runs = ASSUMED.newsRunsPerDay * (HOURS / 24);
  const transitions = Math.max(1, Math.round(refFlagged * ASSUMED.churnShare));
  const per = 1 / Math.max(1, m.first.transitions);
  const extra = {
    read: Math.max(0, m.first.units.read - m.warm.units.read) * per * transitions,
    write: Math.max(0, m.first.units.write - m.warm.units.write) * per * transitions,
  };
  return {
    runs,
    transitions,
    units: { read: extra.read * runs, write: extra.write * runs },
    chunks: Math.max(1, m.first.publishes.chunks * per * transitions) * runs,
    digests: runs,
  };
}

/** Billed seconds of one audit run: init when cold, KEB pages at the pager's concurrency, AWS requests. */
export function auditRunSeconds(pages: number, requests: number, coldShare: number, concurrency = 4): number {
  return (
    coldShare * ASSUMED.initSeconds +
    ASSUMED.invokeSeconds +
    Math.ceil(pages / concurrency) * ASSUMED.kebPageSeconds +
    requests * ASSUMED.awsRequestSeconds
  );
}

/** A month of the Application path's SQS traffic and batches. */
export function applicationTrafficModel(messages: number): {
  batches: number;
  batchSize: number;
  sqsRequests: { sends: number; receives: number; deletes: number; idle: number };
} {
  const batchSize = Math.min(ASSUMED.batchSize, REFERENCE.messagesPerSecond * ASSUMED.batchWindowSeconds);
  const idle = (ASSUMED.idlePollers * HOURS * 3_600) / ASSUMED.longPollSeconds;
  return {
    batches: Math.ceil(messages / batchSize),
    batchSize,
    // One SendMessage per message (a sender that batches pays a tenth); the poller receives and
    // deletes (DeleteMessageBatch) ten at a time; every message under 64 KB: one chunk.
    sqsRequests: { sends: messages, receives: messages / 10, deletes: messages / 10, idle },
  };
}

/** Seconds of one Application batch: writes 8 at a time, plus the handler's CPU. */
export function batchSeconds(writes: number, cpuMsPerMessage: number, messages: number): number {
  return (
    ASSUMED.invokeSeconds +
    Math.ceil(writes / ASSUMED.writesInFlight) * ASSUMED.awsRequestSeconds +
    (cpuMsPerMessage * messages) / 1000
  );
}

/** Log ingestion and a month's archive, GB, of `invocations` each printing `bytes` in `lines`. */
export function logGb(invocations: number, bytes: number, lines: number): number {
  const perInvocation =
    bytes + ASSUMED.platformLogBytes + (lines + ASSUMED.platformLogLines) * ASSUMED.logEventOverhead;
  return (invocations * perInvocation) / 1e9;
}

/** The lines' sum, for a group or all. */
export function total(lines: readonly Line[], group?: Line["group"]): number {
  return lines.filter((l) => !group || l.group === group).reduce((n, l) => n + cost(l), 0);
}

/** The prices' region line: which region, as of when, and whether every price was confirmed. */
export function priceNote(prices: PriceTable): string {
  const unconfirmed = Object.values(prices).filter(
    (p): p is Price => typeof p === "object" && p !== null && "confirmed" in p && !p.confirmed,
  ).length;
  return `list prices of ${prices.region} as of ${prices.asOf} (${prices.source})${unconfirmed ? `; ${unconfirmed} of them not confirmed from a stored copy of AWS's page` : ""}`;
}
