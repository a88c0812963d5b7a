import { reasonOf } from "./finding.ts";
import type { FlatFinding, Presenter } from "./presenter.ts";
import type { Transition } from "./snapshot.ts";
import type { RunSummary } from "./summary.ts";

/**
 * One transition as the run report keeps it: the finding in its presenter's flat form (the form
 * reports had before labels, so a report of any release reads the same) with its labels, the
 * transition's verdict, the reason and, for a change, the flat form's operation before it.
 */
export type ReportTransition = Omit<FlatFinding, "state" | "severity"> &
  Pick<
    Transition,
    "kind" | "state" | "previousState" | "severity" | "since" | "firstSeenAt" | "ending" | "silencedBy"
  > & {
    /** The incident it belongs to (`incidentKey`) and when that incident began. */
    incident?: Transition["incident"];
    /** The finding's `reason` label; `""` when it has none. */
    reason: string;
    /** `changed`: the failing operation before the change (the flat form's `operation`). */
    previousOperation?: unknown;
  };

/**
 * Every transition of one run, however many: what messages point to when they count instead of
 * naming. Found by run ID. `summary` is the run summary without its transition list.
 */
export interface RunReport {
  runId: string;
  audit: string;
  runKey: string;
  scheduledTime: string | null;
  startedAt: string;
  landscape?: string;
  summary: Omit<RunSummary, "transitions">;
  transitions: ReportTransition[];
}

/** The report's view of a transition, in the field order reports always had. */
export function reportTransition(t: Transition, presenter: Presenter): ReportTransition {
  const { expiredAt, operation, edge, ...flat } = presenter.flat(t.finding);
  const row: ReportTransition = {
    kind: t.kind,
    instanceID: flat.instanceID,
    runtimeID: flat.runtimeID,
    shootName: flat.shootName,
    globalAccountID: flat.globalAccountID,
    subAccountID: flat.subAccountID,
    plan: flat.plan,
    region: flat.region,
    provider: flat.provider,
    state: t.state,
    previousState: t.previousState,
    severity: t.severity,
    since: t.since,
    reason: reasonOf(t.finding),
  };
  if (t.ending !== undefined) row.ending = t.ending;
  if (t.silencedBy !== undefined) row.silencedBy = t.silencedBy;
  if (expiredAt !== undefined) row.expiredAt = expiredAt;
  if (operation !== undefined) row.operation = operation;
  if (edge !== undefined) row.edge = edge;
  const before = t.previous ? presenter.flat(t.previous).operation : undefined;
  if (before !== undefined) row.previousOperation = before;
  row.labels = t.finding.labels;
  if (t.firstSeenAt !== undefined) row.firstSeenAt = t.firstSeenAt;
  if (t.incident) row.incident = t.incident;
  return row;
}
