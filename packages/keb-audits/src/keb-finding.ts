import { bounded, type Finding, type Severity } from "@fleet-auditor/audit";
import { isZeroTime, lastOperation, type OperationKind, type Runtime } from "@fleet-auditor/keb/model";

/** The labels of a KEB finding. */
export const KEB_LABELS = [
  "instance",
  "runtime",
  "shoot",
  "account",
  "subaccount",
  "plan",
  "region",
  "provider",
  "state",
  "reason",
] as const;

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

/** What a KEB finding holds beyond its labels: when it expired and how its last operation ended. */
export interface KebDetail {
  expiredAt?: string;
  operation?: FailingOperation;
}

/** A failing operation's description is kept up to this many characters. */
const MAX_DESCRIPTION = 2_000;

/**
 * What a runtime's finding is about: the operation's error reason, else its failing step, else
 * `steps-not-completed` for a deprovisioning that left steps undone; `""` when KEB says nothing
 * (an expired runtime).
 */
function kebReason(op: FailingOperation | undefined): string {
  return op?.errorReason || op?.errorStep || (op?.notCompletedSteps?.length ? "steps-not-completed" : "");
}

/** A KEB finding's detail, as its presenter reads it. */
export const kebDetail = (f: Finding): KebDetail => (f.detail ?? {}) as KebDetail;

/** The runtime's fields a KEB finding is made of, each already bounded. */
export interface RuntimeFields {
  instanceID: string;
  runtimeID: string;
  shootName: string;
  globalAccountID: string;
  subAccountID: string;
  plan: string;
  region: string;
  provider: string;
  state: string;
}

/** A KEB finding of already bounded fields: its labels, summary (the shoot) and detail. */
export function kebFinding(fields: RuntimeFields, severity: Severity, detail: KebDetail): Finding {
  return {
    key: fields.instanceID,
    labels: {
      instance: fields.instanceID,
      runtime: fields.runtimeID,
      shoot: fields.shootName,
      account: fields.globalAccountID,
      subaccount: fields.subAccountID,
      plan: fields.plan,
      region: fields.region,
      provider: fields.provider,
      state: fields.state,
      reason: kebReason(detail.operation),
    },
    severity,
    summary: fields.shootName,
    detail,
  };
}

/**
 * Builds a finding from a runtime; the state and severity are the audit's verdict. The instance
 * ID is kept as KEB sent it (it is the key, and absent runtimes are looked up by it; one too long
 * to store is `unstorable`); every other text is bounded and one-lined here.
 */
export function toFinding(runtime: Runtime, state: string, severity: Severity): Finding {
  const detail: KebDetail = {};
  const expiredAt = runtime.status.expiredAt;
  if (expiredAt && !isZeroTime(expiredAt)) detail.expiredAt = bounded(expiredAt, 60);
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
    detail.operation = failing;
  }
  return kebFinding(
    {
      instanceID: runtime.instanceID,
      runtimeID: bounded(runtime.runtimeID),
      shootName: bounded(runtime.shootName),
      globalAccountID: bounded(runtime.globalAccountID),
      subAccountID: bounded(runtime.subAccountID),
      plan: bounded(runtime.servicePlanName),
      region: bounded(runtime.region),
      provider: bounded(runtime.provider),
      state: bounded(state, 100),
    },
    severity,
    detail,
  );
}
