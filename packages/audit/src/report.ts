import { type FailingOperation, type Finding, reasonOf } from "./finding.ts";
import type { Transition } from "./snapshot.ts";
import type { RunSummary } from "./summary.ts";

/**
 * One transition as the run report keeps it: the finding's placement and failing operation (no
 * userID, as in findings), the transition's verdict, and the reason and previous operation.
 */
export type ReportTransition = Pick<
  Finding,
  | "instanceID"
  | "runtimeID"
  | "shootName"
  | "globalAccountID"
  | "subAccountID"
  | "plan"
  | "region"
  | "provider"
  | "expiredAt"
  | "operation"
  | "edge"
> &
  Pick<Transition, "kind" | "state" | "previousState" | "severity" | "since" | "ending" | "silencedBy"> & {
    /** The error reason or failing step (`reasonOf`); `""` when KEB gives none. */
    reason: string;
    /** `changed`: the failing operation before the change. */
    previousOperation?: FailingOperation;
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

/** The report's view of a transition. */
export function reportTransition(t: Transition): ReportTransition {
  const f = t.finding;
  const row: ReportTransition = {
    kind: t.kind,
    instanceID: f.instanceID,
    runtimeID: f.runtimeID,
    shootName: f.shootName,
    globalAccountID: f.globalAccountID,
    subAccountID: f.subAccountID,
    plan: f.plan,
    region: f.region,
    provider: f.provider,
    state: t.state,
    previousState: t.previousState,
    severity: t.severity,
    since: t.since,
    reason: reasonOf(f),
  };
  if (t.ending !== undefined) row.ending = t.ending;
  if (t.silencedBy !== undefined) row.silencedBy = t.silencedBy;
  if (f.expiredAt !== undefined) row.expiredAt = f.expiredAt;
  if (f.operation) row.operation = f.operation;
  if (f.edge) row.edge = f.edge;
  if (t.previous?.operation) row.previousOperation = t.previous.operation;
  return row;
}
