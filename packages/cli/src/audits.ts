import { KEB_AUDITS, type KebAuditsOptions, kebAudits } from "@fleet-auditor/keb-audits";
import { applicationsAudit, type KubeedgeAuditOptions, kubeedgeAudit } from "@fleet-auditor/kubeedge-audit";
import { type AuditGrouping, AuditRegistry } from "@fleet-auditor/use-cases";

// The CLI's composition of audits: the KEB audits and the KubeEdge audit, registered as the
// functions register them. Commands ask the registry for names and labels, never a list of
// their own.

/** What the CLI's audits read with, and how the variables regroup them. */
export interface CliAuditsOptions {
  keb?: KebAuditsOptions;
  kubeedge?: KubeedgeAuditOptions;
  grouping?: AuditGrouping;
}

/** The CLI's audits; without options, for their names and labels only (no source). */
export function cliAudits(options: CliAuditsOptions = {}): AuditRegistry {
  return new AuditRegistry([...kebAudits(options.keb), kubeedgeAudit(options.kubeedge)], options.grouping);
}

/** The audits the CLI knows, for usage strings, label checks and the ledger's audits. */
export const KNOWN_AUDITS = cliAudits();

/** Whether the audit named `name` reads KEB (and needs its connection). */
export const readsKeb = (name: string): boolean => KEB_AUDITS.some((a) => a.name === name);

/** Whether the audit named `name` reads the Application status table. */
export const readsStatusTable = (name: string): boolean => name === applicationsAudit.name;
