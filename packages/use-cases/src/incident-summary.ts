import {
  type AlertPublisher,
  type CommandStore,
  type IncidentHistory,
  type IncidentStats,
  incidentStats,
} from "@fleet-auditor/audit";
import { incidentSummaryNotice } from "@fleet-auditor/render";
import { boolean, iso, optional, strictObject, string } from "zod";
import { parseInput, RunInputError } from "./errors.ts";
import type { RunLogger } from "./ports.ts";
import { DEFAULT_INCIDENT_RETENTION_DAYS } from "./run-deps.ts";
import { withSchemaKey } from "./schema-key.ts";

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const WINDOW = /^([1-9]\d{0,4})([mhd])$/;

/**
 * The console event (and the weekly schedule's) that asks for a window's incident summary instead
 * of a run: `{ "report": { "since": "7d" } }`, narrowed to one audit with `audit`, published to
 * the alerts topic with `publish: true`, ending at `until` (the schedule's time) rather than now.
 * Unknown keys are refused, so that a typo does not summarise what nobody meant.
 */
export const IncidentSummaryInputSchema = withSchemaKey(
  strictObject({
    report: strictObject({
      since: string().regex(WINDOW, 'expected a duration such as "7d", "24h" or "90m"'),
      audit: optional(string().min(1).max(100)),
      publish: optional(boolean()),
      until: optional(iso.datetime({ offset: true })),
    }),
  }),
);

/** A summary asked for: the window (as given, and in ms), where it ends, which audit, whether to publish. */
export interface IncidentSummaryRequest {
  window: string;
  windowMs: number;
  until?: Date;
  audit?: string;
  publish: boolean;
}

/** True when an event asks for an incident summary (`{ "report": … }`) rather than a run. */
export function isIncidentSummaryRequest(event: unknown): boolean {
  return typeof event === "object" && event !== null && Object.hasOwn(event, "report");
}

/** Parses `{ "report": { "since", "audit"?, "publish"?, "until"? } }`; throws `RunInputError` naming a bad field. */
export function parseIncidentSummary(event: unknown): IncidentSummaryRequest {
  const { since, audit, publish, until } = parseInput(IncidentSummaryInputSchema, event).report;
  const [, n, unit] = WINDOW.exec(since) as RegExpExecArray;
  return {
    window: since,
    windowMs: Number(n) * UNIT_MS[unit as keyof typeof UNIT_MS],
    ...(until ? { until: new Date(until) } : {}),
    ...(audit ? { audit } : {}),
    publish: publish ?? false,
  };
}

/** What a summary reads, where it publishes, and how its message reads. */
export interface IncidentSummaryDeps {
  history: IncidentHistory;
  /** The audits the process registered: a summary counts their incidents. */
  audits: { readonly names: readonly string[] };
  /** The runs' publisher; needed only to publish. */
  publisher?: AlertPublisher;
  /** How long records are kept (`incidentRetentionDays`): no window may be longer. Default 90 days. */
  retentionDays?: number;
  landscape?: string;
  /** Where the commands the message suggests act: the stage's audit table. */
  commandStore?: CommandStore;
  /** Default the system clock. */
  clock?: () => Date;
  log?: RunLogger;
}

/** A window's statistics, which audits they count, and the published message when one was sent. */
export type IncidentSummary = IncidentStats & {
  window: string;
  audits: string[];
  published?: { messageId: string; subject: string };
};

/**
 * A window's incident summary:
 *
 * 1. Checks the request against this stage: a window no longer than the records are kept (a
 *    longer one would count less than it says), an audit the process knows.
 * 2. Reads the records of the window ending at `until` (default now) through the history port,
 *    for the asked audit or every registered one.
 * 3. Computes their statistics (`incidentStats`).
 * 4. With `publish`, sends `incidentSummaryNotice` to the alerts topic; a refused publish throws,
 *    so that a scheduled summary fails where its failures are watched.
 *
 * It writes nothing: no run, snapshot, ledger, lease or health changes.
 */
export async function incidentSummary(
  deps: IncidentSummaryDeps,
  request: IncidentSummaryRequest,
): Promise<IncidentSummary> {
  const audits = checked(deps, request);
  const until = request.until ?? (deps.clock ?? (() => new Date()))();
  const since = new Date(until.getTime() - request.windowMs);
  const records = await deps.history.listIncidents(audits, {
    since,
    ...(request.audit ? { audit: request.audit } : {}),
  });
  const stats = incidentStats(records, { since, until });
  const summary: IncidentSummary = { ...stats, window: request.window, audits };
  if (!request.publish) return summary;
  if (!deps.publisher)
    throw new RunInputError([{ path: "report.publish", message: "this process has no topic" }]);
  const message = incidentSummaryNotice(
    {
      window: request.window,
      audits,
      ...(request.audit ? { audit: request.audit } : {}),
      ...(deps.landscape ? { landscape: deps.landscape } : {}),
      ...(deps.commandStore ? { store: deps.commandStore } : {}),
    },
    stats,
  );
  const { messageId } = await deps.publisher.publish(message);
  deps.log?.info("incident summary published", { window: request.window, messageId, opened: stats.opened });
  return { ...summary, published: { messageId, subject: message.subject } };
}

/** The audits to read, once the window and the audit are known to make sense here. */
function checked(deps: IncidentSummaryDeps, request: IncidentSummaryRequest): string[] {
  const retention = deps.retentionDays ?? DEFAULT_INCIDENT_RETENTION_DAYS;
  if (request.windowMs > retention * UNIT_MS.d)
    throw new RunInputError([
      {
        path: "report.since",
        message: `${request.window} is longer than the ${retention} days incident records are kept`,
      },
    ]);
  const known = [...deps.audits.names];
  if (request.audit === undefined) return known;
  if (!known.includes(request.audit))
    throw new RunInputError([
      { path: "report.audit", message: `unknown audit; expected one of ${known.join(", ")}` },
    ]);
  return [request.audit];
}
