import type { AuditDefinition } from "./audit-definition.ts";
import { applicationsAudit } from "./edge/edge-audit.ts";
import { UnknownAuditError } from "./errors.ts";
import { expiredAudit, failingAudit } from "./keb/keb-audits.ts";

/** The audits that ship by default. */
export const AUDITS: readonly AuditDefinition[] = [failingAudit, expiredAudit, applicationsAudit];

/** The audit named `name`; throws `UnknownAuditError` listing the known ones. */
export function auditNamed(name: string, audits: readonly AuditDefinition[] = AUDITS): AuditDefinition {
  const audit = audits.find((a) => a.name === name);
  if (!audit)
    throw new UnknownAuditError(
      name,
      audits.map((a) => a.name),
    );
  return audit;
}
