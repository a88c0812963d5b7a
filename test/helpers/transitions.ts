import type { DigestContext, Transition } from "@fleet-auditor/audit";
import { type FailingOperation, KEB_GROUP_BY, kebPresenter } from "@fleet-auditor/keb-audits";
import { edited, finding, type RuntimeChange, type TestRuntime } from "./findings.ts";

// A digest context and transitions that vary by index: the fixtures of the renderers' tests.

export const AT = "2026-11-30T06:00:00.000Z";
export const ctx: DigestContext = {
  audit: "failing",
  groupBy: KEB_GROUP_BY,
  presenter: kebPresenter,
  runId: "run-1",
  at: AT,
  complete: true,
  incompleteReason: null,
  listed: 20_000,
  flagged: 3,
  landscape: "prod-eu",
  links: {
    runtime: "https://console.example/runtimes/{instanceID}",
    runbook: "https://runbooks.example/{reason}",
    report: "https://console.example/runs/{runId}",
  },
  report: { stored: true, command: "fleet-auditor runs show run-1" },
};

const REGIONS = ["eu-central-1", "westeurope", "us-east-1"];
const REASONS = ["err_provisioning", "err_keb_timeout", "err_quota"];

/** A transition of runtime `i`: regions, reasons and plans vary with `i` unless given. */
export function t(
  i: number,
  kind: Transition["kind"] = "firing",
  over: { region?: string; reason?: string; severity?: "critical" | "warning"; state?: string } = {},
): Transition {
  const id = `instance-${String(i).padStart(5, "0")}`;
  const f = edited(finding(id, over.state ?? "failed", over.severity ?? "critical"), (flat) => ({
    shootName: `c-${i.toString(16).padStart(7, "0")}`,
    region: over.region ?? (REGIONS[i % 3] as string),
    plan: i % 5 === 0 ? "trial" : "aws",
    operation: { ...(flat.operation as object), errorReason: over.reason ?? (REASONS[i % 3] as string) },
  }));
  const state = over.state ?? "failed";
  return {
    kind,
    key: id,
    state,
    previousState: kind === "firing" ? null : state,
    severity: f.severity,
    finding: f,
    since: new Date(Date.parse(AT) - (i % 7) * 3_600_000).toISOString(),
    ...(kind === "resolved" ? { ending: "succeeded" } : {}),
  };
}

/** A transition whose KEB finding has some runtime fields changed (its operation too: `op`). */
export function editedT(
  tr: Transition,
  change: (runtime: TestRuntime, op: FailingOperation) => RuntimeChange,
): Transition {
  return { ...tr, finding: edited(tr.finding, (flat) => change(flat, flat.operation as FailingOperation)) };
}
