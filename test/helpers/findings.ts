import type { Finding, FlatFinding, Severity } from "@fleet-auditor/audit";
import { kebPresenter } from "@fleet-auditor/keb-audits";

/** A finding for tests; `op` changes the failing operation. */
export function finding(id: string, state = "failed", severity: Severity = "critical", op = "op-1"): Finding {
  return fromFlat({
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
  change: (flat: FlatFinding, op?: Record<string, unknown>) => Partial<FlatFinding>,
): Finding {
  const flat = kebPresenter.flat(f);
  return fromFlat({ ...flat, ...change(flat, flat.operation as Record<string, unknown> | undefined) });
}

function fromFlat(flat: FlatFinding): Finding {
  const f = kebPresenter.fromFlat(flat);
  if (!f) throw new Error("not a KEB finding");
  return f;
}
