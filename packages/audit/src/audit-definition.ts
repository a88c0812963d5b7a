import type { Runtime, RuntimeFilters } from "@fleet-auditor/keb/model";
import type { Finding } from "./finding.ts";
import type { Presenter } from "./presenter.ts";

/** What every audit is: a name, the labels that make one incident, and how its findings read. */
export interface AuditKind {
  name: string;
  description: string;
  /**
   * The labels whose values make a group (an incident): findings that share them are told as
   * one. `GROUP_BY_<AUDIT>` sets them per audit.
   */
  groupBy: readonly string[];
  /** The labels its findings carry: what `groupBy`, silences and link templates can name. */
  labels: readonly string[];
  presenter: Presenter;
}

/** A named, data-driven audit of KEB: which queries to list and what counts as flagged. */
export interface KebAuditDefinition extends AuditKind {
  source: "keb";
  /** Listed separately and merged; each is a full set of KEB filters. */
  queries: readonly RuntimeFilters[];
  /** The finding for a flagged runtime, or undefined. Decided from `status`, never from the query. */
  classify(runtime: Runtime): Finding | undefined;
}

/** An audit of the KubeEdge Application status table (stuck, refused, quarantined). */
export interface StatusTableAuditDefinition extends AuditKind {
  source: "status-table";
}

/** An audit whose findings come from a source the caller provides (`AuditRunDeps`). */
export interface OwnSourceAuditDefinition extends AuditKind {
  source: "own";
}

/** An audit the engine runs: what it reads differs, the diff, messages and ledger do not. */
export type AuditDefinition = KebAuditDefinition | StatusTableAuditDefinition | OwnSourceAuditDefinition;

/** The audit with another `groupBy` (an empty list keeps its own). */
export function withGroupBy<A extends AuditDefinition>(audit: A, groupBy: readonly string[] | undefined): A {
  return groupBy?.length ? { ...audit, groupBy: [...groupBy] } : audit;
}
