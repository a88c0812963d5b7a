import type { Finding, Severity } from "@fleet-auditor/audit";

/** A finding for tests; `op` changes the failing operation. */
export function finding(id: string, state = "failed", severity: Severity = "critical", op = "op-1"): Finding {
  return {
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
  };
}
