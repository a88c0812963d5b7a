import type { Presenter } from "./presenter.ts";

/**
 * What every audit is to the engine: a name, the labels that make one incident, the labels its
 * findings carry and how they read. What it reads (KEB, the status table, anything else) is its
 * source's business: the engine never asks which kind of source an audit has. The audits
 * themselves are plug-ins (`@fleet-auditor/keb-audits`, `@fleet-auditor/kubeedge-audit`),
 * registered where the process starts.
 */
export interface AuditDefinition {
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

/** The audit with another `groupBy` (an empty list keeps its own). */
export function withGroupBy<A extends AuditDefinition>(audit: A, groupBy: readonly string[] | undefined): A {
  return groupBy?.length ? { ...audit, groupBy: [...groupBy] } : audit;
}
