import { isZeroTime, lastOperation, type OperationKind, type Runtime } from "@fleet-auditor/keb/model";
import type { EdgeDetail } from "./edge-detail.ts";
import { oneLine } from "./text.ts";

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
/** Identity and placement fields (shoot, accounts, plan, region…) are kept up to this many characters. */
export const MAX_IDENTITY = 256;
// DynamoDB keys hold at most 1024 bytes; a snapshot item's sort key is `RT#<instanceID>`.
const MAX_ID_BYTES = 1_000;
// Far below DynamoDB's 400 KB: a snapshot item is a finding and a few counters, and a report row
// or ledger line repeats parts of it. Every field is bounded below, so only a bug reaches this.
const MAX_FINDING_BYTES = 64_000;

/**
 * Text from outside as a finding keeps it: one line (control characters and line breaks become
 * spaces, so no field can start a line of a message) and at most `max` code points. Every text
 * field of a finding passes here when the finding is built, so everything downstream (snapshot,
 * report, ledger, messages, silences) sees the same bounded value.
 */
export function bounded(text: string, max = MAX_IDENTITY): string {
  return oneLine(text, max);
}

/**
 * Why a finding cannot be kept in the snapshot, or undefined when it can. Such a finding is left
 * out before anything is published, counted in the run summary and told once: storing it would
 * fail after the publish, and every run would send the same message again.
 */
export function unstorable(f: Finding): string | undefined {
  const bytes = Buffer.byteLength(f.instanceID);
  if (bytes > MAX_ID_BYTES) return `its key is ${bytes} bytes; DynamoDB keys hold at most 1024`;
  const size = Buffer.byteLength(JSON.stringify(f));
  return size > MAX_FINDING_BYTES
    ? `it is ${size} bytes; a snapshot item keeps at most ${MAX_FINDING_BYTES}`
    : undefined;
}

/**
 * Builds a finding from a runtime; the state and severity are the audit's verdict. The instance
 * ID is kept as KEB sent it (it is the key, and absent runtimes are looked up by it; one too long
 * to store is `unstorable`); every other text is bounded and one-lined here.
 */
export function toFinding(runtime: Runtime, state: string, severity: Severity): Finding {
  const finding: Finding = {
    instanceID: runtime.instanceID,
    runtimeID: bounded(runtime.runtimeID),
    shootName: bounded(runtime.shootName),
    globalAccountID: bounded(runtime.globalAccountID),
    subAccountID: bounded(runtime.subAccountID),
    plan: bounded(runtime.servicePlanName),
    region: bounded(runtime.region),
    provider: bounded(runtime.provider),
    state: bounded(state, 100),
    severity,
  };
  const expiredAt = runtime.status.expiredAt;
  if (expiredAt && !isZeroTime(expiredAt)) finding.expiredAt = bounded(expiredAt, 60);
  const last = lastOperation(runtime.status);
  if (last) {
    const { operation: op, kind } = last;
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
