import type {
  AuditStateStore,
  RunReportStore,
  RunSummary,
  Transition,
  TransitionSummary,
} from "@fleet-auditor/audit";
import { strictObject, string } from "zod";
import type { AuditRegistry } from "./audit-registry.ts";
import { parseInput } from "./errors.ts";
import { withSchemaKey } from "./schema-key.ts";

/** A console event that asks for a run's report instead of running an audit: `{ "show": RUN_ID }`. */
export const ShowRunInputSchema = withSchemaKey(strictObject({ show: string().min(1).max(200) }));

/** True when an event asks for a report (`{ "show": … }`) rather than a run. */
export function isShowRequest(event: unknown): boolean {
  return typeof event === "object" && event !== null && Object.hasOwn(event, "show");
}

/** Parses `{ "show": RUN_ID }`; throws `RunInputError` naming a bad field. */
export function parseShowRun(event: unknown): string {
  return parseInput(ShowRunInputSchema, event).show;
}

/** A run as `runs show` and `{ "show": … }` print it: the summary's head and every transition. */
export interface RunView {
  runId: string;
  audit: string;
  scheduledTime: string | null;
  status: RunSummary["status"];
  complete: boolean;
  incompleteReason: string | null;
  startedAt: string;
  /** `report` when every transition is here; `ledger` for a run without a report (at most 500). */
  source: "report" | "ledger";
  transitionsOmitted?: number;
  transitions: Array<Transition | TransitionSummary>;
}

/**
 * Finds a run by the ID its messages quote: its report when it has one (every transition, with
 * the finding's details), else its ledger record (runs without transitions keep no report).
 */
export async function showRun(
  deps: { reports: RunReportStore; store: AuditStateStore; audits: Pick<AuditRegistry, "names"> },
  runId: string,
  ledgerDepth = 5_000,
): Promise<RunView | undefined> {
  const report = await deps.reports.loadReport(runId);
  if (report) {
    const s = report.summary;
    return { ...head(s), source: "report", transitions: report.transitions };
  }
  for (const audit of deps.audits.names) {
    const record = (await deps.store.recentRuns(audit, ledgerDepth)).find((r) => r.summary.runId === runId);
    if (record) {
      const s = record.summary;
      return {
        ...head(s),
        source: "ledger",
        ...(s.transitionsOmitted ? { transitionsOmitted: s.transitionsOmitted } : {}),
        transitions: s.transitions,
      };
    }
  }
  return undefined;
}

function head(s: Omit<RunSummary, "transitions">): Omit<RunView, "source" | "transitions"> {
  return {
    runId: s.runId,
    audit: s.audit,
    scheduledTime: s.scheduledTime,
    status: s.status,
    complete: s.complete,
    incompleteReason: s.incompleteReason,
    startedAt: s.startedAt,
  };
}
