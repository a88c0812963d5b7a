import type { InhibitRule } from "./inhibition.ts";
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
  /**
   * Which of its firing findings hold back which others (`inhibition.ts`): the plug-in's shipped
   * defaults, then the stage's own (`INHIBIT_RULES_<AUDIT>`, added by `withInhibitRules`).
   */
  inhibitRules?: readonly InhibitRule[];
}

/** The audit with `rules` after its own inhibition rules (none given keeps it as it is). */
export function withInhibitRules<A extends AuditDefinition>(
  audit: A,
  rules: readonly InhibitRule[] | undefined,
): A {
  return rules?.length ? { ...audit, inhibitRules: [...(audit.inhibitRules ?? []), ...rules] } : audit;
}

/** The audit with another `groupBy` (an empty list keeps its own). */
export function withGroupBy<A extends AuditDefinition>(audit: A, groupBy: readonly string[] | undefined): A {
  return groupBy?.length ? { ...audit, groupBy: [...groupBy] } : audit;
}
