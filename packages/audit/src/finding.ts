import { isZeroTime, lastOperation, type OperationKind, type Runtime } from "@fleet-auditor/keb/model";
import type { EdgeDetail } from "./edge-finding.ts";

/** How urgent a finding is; orders digests and sets the `severity` attribute. */
export type Severity = "critical" | "warning" | "info";

export const SEVERITY_RANK: Record<Severity, number> = { critical: 3, warning: 2, info: 1 };

/** The operation that put a runtime in its flagged state. */
export interface FailingOperation {
  kind: OperationKind;
  operationID: string;
  state: string;
  description: string;
  errorReason?: string;
  errorComponent?: string;
  errorStep?: string;
  updatedAt?: string;
  /** A deprovisioning that "succeeded" with these steps left undone (`deprovisionincomplete`). */
  notCompletedSteps?: string[];
}

/**
 * A flagged runtime as an audit sees it: identity, placement, state and the failing operation.
 * Deliberately without `userID` (personal data) and without parameters.
 */
export interface Finding {
  instanceID: string;
  runtimeID: string;
  shootName: string;
  globalAccountID: string;
  subAccountID: string;
  plan: string;
  region: string;
  provider: string;
  /** The displayed state (KEB's `status.state`, recomputed when KEB left it empty). */
  state: string;
  expiredAt?: string;
  severity: Severity;
  operation?: FailingOperation;
  /** A KubeEdge finding of the applications audit; see `edge-finding.ts` for how it fills the rest. */
  edge?: EdgeDetail;
}

/** A failing operation's description is kept up to this many characters. */
export const MAX_DESCRIPTION = 2_000;
// DynamoDB keys hold at most 1024 bytes; a snapshot item's sort key is `RT#<instanceID>`.
const MAX_ID_BYTES = 1_000;

function bounded(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * Why a finding cannot be kept in the snapshot, or undefined when it can. Such a runtime is
 * reported in the run summary and left out of the diff: storing it would fail after the publish,
 * and every run would send the same message again.
 */
export function unstorable(f: Finding): string | undefined {
  const bytes = Buffer.byteLength(f.instanceID);
  return bytes > MAX_ID_BYTES ? `instanceID is ${bytes} bytes; DynamoDB keys hold at most 1024` : undefined;
}

/** Builds a finding from a runtime; the state and severity are the audit's verdict. */
export function toFinding(runtime: Runtime, state: string, severity: Severity): Finding {
  const finding: Finding = {
    instanceID: runtime.instanceID,
    runtimeID: runtime.runtimeID,
    shootName: runtime.shootName,
    globalAccountID: runtime.globalAccountID,
    subAccountID: runtime.subAccountID,
    plan: runtime.servicePlanName,
    region: runtime.region,
    provider: runtime.provider,
    state,
    severity,
  };
  const expiredAt = runtime.status.expiredAt;
  if (expiredAt && !isZeroTime(expiredAt)) finding.expiredAt = expiredAt;
  const last = lastOperation(runtime.status);
  if (last) {
    const { operation: op, kind } = last;
    // Findings are stored (one item per runtime, 400 KB at most) and sent: KEB's texts are bounded.
    const failing: FailingOperation = {
      kind,
      operationID: bounded(op.operationID, 200),
      state: bounded(op.state, 100),
      description: bounded(op.description, MAX_DESCRIPTION),
    };
    if (op.error?.reason) failing.errorReason = bounded(op.error.reason, 300);
    if (op.error?.component) failing.errorComponent = bounded(op.error.component, 300);
    if (op.error?.step) failing.errorStep = bounded(op.error.step, 300);
    if (op.updatedAt) failing.updatedAt = bounded(op.updatedAt, 60);
    if (op.executedButNotCompletedSteps?.length)
      failing.notCompletedSteps = op.executedButNotCompletedSteps.slice(0, 50).map((s) => bounded(s, 200));
    finding.operation = failing;
  }
  return finding;
}

/**
 * What a finding is about, for grouping, runbooks and silences: the operation's error reason,
 * else its failing step, else `steps-not-completed` for a deprovisioning that left steps undone;
 * `""` when KEB says nothing (an expired runtime). An edge finding's own reason (the status of a
 * stuck Application, `403 Forbidden`, a quarantine code).
 */
export function reasonOf(f: Finding): string {
  if (f.edge) return f.edge.reason;
  const op = f.operation;
  return op?.errorReason || op?.errorStep || (op?.notCompletedSteps?.length ? "steps-not-completed" : "");
}

/** What makes two findings the "same problem": a change here is a `changed` transition. */
export function problemKey(finding: Finding): string {
  // A refusal's count moves every run; only what it is (and a stuck Application's status) matters.
  if (finding.edge) return [finding.state, finding.edge.status ?? "", finding.edge.reason].join("|");
  const op = finding.operation;
  return [finding.state, finding.expiredAt ?? "", op?.operationID ?? "", op?.state ?? ""].join("|");
}
