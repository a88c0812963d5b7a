import type { AuditDefinition } from "@fleet-auditor/audit";
import { EDGE_LABELS } from "./edge-finding.ts";
import { edgePresenter } from "./edge-presenter.ts";

/** How edge findings group by default: one incident per state, node and reason. */
export const EDGE_GROUP_BY = ["state", "node", "reason"] as const;

/**
 * KubeEdge Applications stuck in flight, nodes whose requests the cloud keeps refusing, and
 * messages quarantined as unreadable: read from the Application status table's watched index.
 */
export const applicationsAudit: AuditDefinition = {
  name: "applications",
  description: "KubeEdge Applications stuck in flight, refusing nodes, quarantined messages",
  groupBy: EDGE_GROUP_BY,
  labels: EDGE_LABELS,
  presenter: edgePresenter,
};
