import type { Finding, Severity } from "@fleet-auditor/audit";

// @deprecated: reads the flat form, the runtime-shaped record of findings that releases before
// 2026-12 wrote into snapshots and run reports (a KEB runtime's fields; an edge finding's verb as
// `plan`, its node as `region`, its detail as `edge`). Nothing writes it any more. This folder,
// and every read through it, goes in the first release after 2027-03-31 (see CHANGELOG.md, "The
// flat form retired").

/** A finding in the flat form, as it was stored. */
export interface FlatFinding {
  instanceID: string;
  runtimeID?: string;
  shootName?: string;
  globalAccountID?: string;
  subAccountID?: string;
  plan?: string;
  region?: string;
  provider?: string;
  state: string;
  severity: Severity;
  expiredAt?: string;
  operation?: FlatOperation;
  edge?: FlatEdge | null;
  /** Written since labels. */
  labels?: Readonly<Record<string, string>>;
}

interface FlatOperation {
  errorReason?: string;
  errorStep?: string;
  notCompletedSteps?: string[];
}

interface FlatEdge {
  what: string;
  node: string;
  key: string;
  verb: string;
  resource: string;
  status?: string;
  since?: string;
  reason: string;
  code?: number;
}

/** A flat finding as the model's: its labels as written, or as they were derived when it was written. */
export function findingFromFlat(flat: FlatFinding): Finding {
  const edge = flat.edge ?? undefined;
  if (edge) {
    return {
      key: flat.instanceID,
      labels: flat.labels ? { ...flat.labels } : edgeLabels(edge),
      severity: flat.severity,
      ...(edge.since ? { startsAt: edge.since } : {}),
      summary: flat.shootName ?? "",
      detail: edge,
    };
  }
  const detail: { expiredAt?: string; operation?: FlatOperation } = {};
  if (flat.expiredAt !== undefined) detail.expiredAt = flat.expiredAt;
  if (flat.operation !== undefined) detail.operation = flat.operation;
  return {
    key: flat.instanceID,
    labels: flat.labels ? { ...flat.labels } : kebLabels(flat),
    severity: flat.severity,
    summary: flat.shootName ?? "",
    detail,
  };
}

/** A runtime's labels, as the KEB audits derived them when the flat form was written. */
function kebLabels(flat: FlatFinding): Record<string, string> {
  const op = flat.operation;
  return {
    instance: flat.instanceID,
    runtime: flat.runtimeID ?? "",
    shoot: flat.shootName ?? "",
    account: flat.globalAccountID ?? "",
    subaccount: flat.subAccountID ?? "",
    plan: flat.plan ?? "",
    region: flat.region ?? "",
    provider: flat.provider ?? "",
    state: flat.state,
    reason: op?.errorReason || op?.errorStep || (op?.notCompletedSteps?.length ? "steps-not-completed" : ""),
  };
}

/** An edge finding's labels, as the applications audit derived them when the flat form was written. */
function edgeLabels(e: FlatEdge): Record<string, string> {
  // The Application's key: /{group}/{version}/{resource}/{namespace}/{name}, `null` for none.
  const [, , , , namespace = "", name = ""] = e.key.split("/");
  const part = (v: string): string => (v === "null" ? "" : v);
  return {
    node: e.node,
    verb: e.verb,
    resource: e.resource,
    namespace: part(namespace),
    name: part(name),
    status: e.status ?? "",
    state: e.what,
    reason: e.reason,
    code: e.code ? String(e.code) : "",
  };
}
