import type { RefusingNode, StuckApplication } from "@fleet-auditor/metaserver";
import type { Finding, Severity } from "./finding.ts";

// The applications audit's findings in the engine's terms. The engine (snapshot diff, silences,
// groups, digests, reports) works on `Finding`; an edge finding fills it so that everything
// downstream works unchanged, and carries what only the edge has in `edge`:
//   instanceID  the finding's own key: `app:<Application ID>`, `refusals:<node>:<code>:<reason>`,
//               `quarantine:<code>` (the snapshot is keyed by it)
//   shootName   what messages name it by: the Application's verb and key, or the refusal
//   region      the node: groups, summaries and silences by region are by node
//   plan        the verb: a group's "plans" tally is its verbs
//   provider    "kubeedge"; the account fields and runtimeID are empty

/** What an edge finding is about, beyond the runtime-shaped fields. */
export interface EdgeDetail {
  what: "stuck" | "refused" | "quarantined";
  node: string;
  /** The Application's key, e.g. `/core/v1/services/null/null` (stuck), or the most refused key. */
  key: string;
  verb: string;
  resource: string;
  /** stuck: the Application's status (InApplying…). */
  status?: string;
  /** stuck: its latest message's time; refused: the first refusal in the window (ISO). */
  since?: string;
  /** refused: the Kubernetes Status code and reason (`403 Forbidden`); quarantined: the code; stuck: "". */
  reason: string;
  /** refused: the Kubernetes Status code (403), 0 without one. */
  code?: number;
  /** refused, quarantined: how many in the window. */
  count?: number;
  /** refused: the `verb resource` pairs refused, most frequent first. */
  requests?: string[];
}

/** The states the applications audit gives, as messages show them. */
const EDGE_STATES = { stuck: "stuck", refused: "refused", quarantined: "quarantined" } as const;

const SEVERITY: Record<EdgeDetail["what"], Severity> = {
  stuck: "warning",
  refused: "warning",
  quarantined: "info",
};

function edgeFinding(id: string, name: string, detail: EdgeDetail): Finding {
  return {
    instanceID: id,
    runtimeID: "",
    shootName: name,
    globalAccountID: "",
    subAccountID: "",
    plan: detail.verb,
    region: detail.node,
    provider: "kubeedge",
    state: EDGE_STATES[detail.what],
    severity: SEVERITY[detail.what],
    edge: detail,
  };
}

// DynamoDB keys hold at most 1024 bytes; the snapshot's sort key is `RT#<instanceID>`.
const cut = (text: string, max: number): string => (text.length <= max ? text : text.slice(0, max));

/** A stuck Application: one finding each, keyed by its ID. */
export function stuckFinding(s: StuckApplication): Finding {
  return edgeFinding(`app:${cut(s.id, 300)}`, `${s.verb} ${cut(s.key, 300)}`, {
    what: "stuck",
    node: s.node,
    key: cut(s.key, 300),
    verb: s.verb,
    resource: s.resource,
    status: s.status,
    since: s.since,
    // No reason: a node's stuck Applications are one group whatever their status.
    reason: "",
  });
}

/** A refusing node's (reason, code): "23 × 403 Forbidden on list services". */
export function refusedFinding(r: RefusingNode): Finding {
  const [verb = "", resource = ""] = (r.requests[0] ?? "").split(" ");
  const reason = [r.code || "", r.reason].filter(Boolean).join(" ") || "no reason given";
  const on = r.requests.slice(0, 3).join(", ");
  return edgeFinding(
    `refusals:${cut(r.node, 253)}:${r.code}:${cut(r.reason, 200)}`,
    `${r.count} × ${reason} on ${cut(on, 200)}`,
    {
      what: "refused",
      node: r.node,
      key: cut(r.keys[0] ?? "", 300),
      verb,
      resource,
      since: r.firstAt,
      reason,
      code: r.code,
      count: r.count,
      requests: r.requests.slice(0, 10),
    },
  );
}

/** Bodies quarantined in the window with one code: one finding per code. */
export function quarantinedFinding(code: string, count: number): Finding {
  return edgeFinding(`quarantine:${cut(code, 200)}`, `${count} message(s) quarantined as ${cut(code, 200)}`, {
    what: "quarantined",
    node: "",
    key: "",
    verb: "",
    resource: "",
    reason: code,
    count,
  });
}
