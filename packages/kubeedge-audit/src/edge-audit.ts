import type { AuditDefinition, InhibitRule } from "@fleet-auditor/audit";
import { EDGE_LABELS } from "./edge-finding.ts";
import { edgePresenter } from "./edge-presenter.ts";

/** How edge findings group by default: one incident per state, node and reason. */
export const EDGE_GROUP_BY = ["state", "node", "reason"] as const;

/**
 * The applications audit's shipped inhibition: a node whose requests the cloud keeps refusing
 * holds back its own stuck Applications (`equal: node`). They are stuck because the node is
 * refused: one message about the node says it, not one per Application; each is told once the
 * node is no longer refused, if it is still stuck then.
 */
const EDGE_INHIBIT_RULES: readonly InhibitRule[] = [
  {
    sourceMatchers: [{ name: "state", op: "=", value: "refused" }],
    targetMatchers: [{ name: "state", op: "=", value: "stuck" }],
    equal: ["node"],
  },
];

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
  inhibitRules: EDGE_INHIBIT_RULES,
};
