import { bounded, type Finding, keyPart, type Severity } from "@fleet-auditor/audit";
import type { RefusingNode, StuckApplication } from "@fleet-auditor/metaserver";
import type { EdgeDetail } from "./edge-detail.ts";

// The applications audit's findings: a stuck Application, a node whose requests the cloud keeps
// refusing, or messages quarantined as unreadable. Keys:
//   `app:<Application ID>`, `refusals:<node>:<code>:<reason>`, `quarantine:<code>`

/** The labels of an edge (KubeEdge) finding. */
export const EDGE_LABELS = [
  "node",
  "verb",
  "resource",
  "namespace",
  "name",
  "status",
  "state",
  "reason",
  "code",
] as const;

const SEVERITY: Record<EdgeDetail["what"], Severity> = {
  stuck: "warning",
  refused: "warning",
  quarantined: "info",
};

/** An edge finding's detail, as its presenter reads it. */
export const edgeDetail = (f: Finding): EdgeDetail => f.detail as EdgeDetail;

/** An edge finding of its key, what names it and its (bounded) detail. */
function edgeFinding(key: string, summary: string, detail: EdgeDetail): Finding {
  // The Application's key: /{group}/{version}/{resource}/{namespace}/{name}, `null` for none.
  const [, , , , namespace = "", name = ""] = detail.key.split("/");
  const part = (v: string): string => (v === "null" ? "" : v);
  return {
    key,
    labels: {
      node: detail.node,
      verb: detail.verb,
      resource: detail.resource,
      namespace: part(namespace),
      name: part(name),
      status: detail.status ?? "",
      state: detail.what,
      reason: detail.reason,
      code: detail.code ? String(detail.code) : "",
    },
    severity: SEVERITY[detail.what],
    ...(detail.since ? { startsAt: detail.since } : {}),
    summary: bounded(summary, MAX_NAME),
    detail,
  };
}

// Every text from the edge is bounded and one-lined here, where an edge finding is built. Keys
// keep today's form when their parts fit (`keyPart`): a part that has to be cut gets a hash of
// the whole value, so two Applications, nodes or reasons that differ past the cut never share
// a key. A key's parts stay within DynamoDB's 1,024-byte sort key (`RT#` + at most ~930 bytes).
const MAX_NAME = 400;
/** An ISO time from the edge, kept only when it is one (a garbled one would sort anywhere). */
const isoTime = (value: string | undefined): string | undefined =>
  value !== undefined && /^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(value) && value.length <= 30 ? value : undefined;

/** A stuck Application: one finding each, keyed by its ID. */
export function stuckFinding(s: StuckApplication): Finding {
  const key = bounded(s.key, 300);
  const since = isoTime(s.since);
  return edgeFinding(`app:${keyPart(s.id, 300, 900)}`, `${bounded(s.verb, 100)} ${key}`, {
    what: "stuck",
    node: bounded(s.node),
    key,
    verb: bounded(s.verb, 100),
    resource: bounded(s.resource),
    status: bounded(s.status, 100),
    ...(since ? { since } : {}),
    // No reason: a node's stuck Applications are one group whatever their status.
    reason: "",
  });
}

/** A refusing node's (reason, code): "23 × 403 Forbidden on list services". */
export function refusedFinding(r: RefusingNode): Finding {
  const [verb = "", resource = ""] = (r.requests[0] ?? "").split(" ");
  const reason = bounded([r.code || "", r.reason].filter(Boolean).join(" ") || "no reason given", 300);
  const on = bounded(r.requests.slice(0, 3).join(", "), 200);
  const since = isoTime(r.firstAt);
  return edgeFinding(
    `refusals:${keyPart(r.node, 253, 500)}:${r.code}:${keyPart(r.reason, 200, 400)}`,
    `${r.count} × ${reason} on ${on}`,
    {
      what: "refused",
      node: bounded(r.node),
      key: bounded(r.keys[0] ?? "", 300),
      verb: bounded(verb, 100),
      resource: bounded(resource),
      ...(since ? { since } : {}),
      reason,
      code: r.code,
      count: r.count,
      requests: r.requests.slice(0, 10).map((q) => bounded(q, 200)),
    },
  );
}

/** Bodies quarantined in the window with one code: one finding per code. */
export function quarantinedFinding(code: string, count: number): Finding {
  const name = bounded(code, 200);
  return edgeFinding(`quarantine:${keyPart(code, 200, 600)}`, `${count} message(s) quarantined as ${name}`, {
    what: "quarantined",
    node: "",
    key: "",
    verb: "",
    resource: "",
    reason: name,
    count,
  });
}
