import type { AuditDefinition, Finding } from "@fleet-auditor/audit";
import type { Runtime, RuntimeFilters } from "@fleet-auditor/keb/model";

/** A named, data-driven audit of KEB: which queries to list and what counts as flagged. */
export interface KebAuditDefinition extends AuditDefinition {
  /** Listed separately and merged; each is a full set of KEB filters. */
  queries: readonly RuntimeFilters[];
  /** The finding for a flagged runtime, or undefined. Decided from `status`, never from the query. */
  classify(runtime: Runtime): Finding | undefined;
}
