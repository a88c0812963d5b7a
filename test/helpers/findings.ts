import type { Finding, Severity } from "@fleet-auditor/audit";
import {
  type FailingOperation,
  type KebDetail,
  kebFinding,
  type RuntimeFields,
} from "@fleet-auditor/keb-audits";

/** A KEB runtime as tests spell it: its fields, severity, expiry and failing operation. */
export type TestRuntime = RuntimeFields & {
  severity: Severity;
  expiredAt?: string;
  operation?: FailingOperation;
};

/** What a test changes of a runtime: any field, an operation as loosely as the test needs. */
export type RuntimeChange = Partial<Omit<TestRuntime, "operation">> & { operation?: object };

/** A finding for tests; `op` changes the failing operation. */
export function finding(id: string, state = "failed", severity: Severity = "critical", op = "op-1"): Finding {
  return fromRuntime({
    instanceID: id,
    runtimeID: `rt-${id}`,
    shootName: `c-${id}`,
    globalAccountID: "ga-1",
    subAccountID: `sa-${id}`,
    plan: "aws",
    region: "eu-central-1",
    provider: "AWS",
    state,
    severity,
    operation: {
      kind: "provision",
      operationID: op,
      state: "failed",
      description: "quota exceeded",
      errorReason: "err_provisioning",
    },
  });
}

/** A KEB finding with some of its runtime fields changed (labels follow: a finding is built, not edited). */
export function edited(
  f: Finding,
  change: (runtime: TestRuntime, op?: FailingOperation) => RuntimeChange,
): Finding {
  const runtime = runtimeOf(f);
  return fromRuntime({ ...runtime, ...change(runtime, runtime.operation) } as TestRuntime);
}

function fromRuntime(r: TestRuntime): Finding {
  const { severity, expiredAt, operation, ...fields } = r;
  const detail: KebDetail = {};
  if (expiredAt !== undefined) detail.expiredAt = expiredAt;
  if (operation !== undefined) detail.operation = operation;
  return kebFinding(fields, severity, detail);
}

/** A KEB finding's runtime fields back from its labels and detail. */
function runtimeOf(f: Finding): TestRuntime {
  const l = (name: string): string => f.labels[name] ?? "";
  const { expiredAt, operation } = (f.detail ?? {}) as KebDetail;
  return {
    instanceID: f.key,
    runtimeID: l("runtime"),
    shootName: l("shoot"),
    globalAccountID: l("account"),
    subAccountID: l("subaccount"),
    plan: l("plan"),
    region: l("region"),
    provider: l("provider"),
    state: l("state"),
    severity: f.severity,
    ...(expiredAt !== undefined ? { expiredAt } : {}),
    ...(operation !== undefined ? { operation } : {}),
  };
}
