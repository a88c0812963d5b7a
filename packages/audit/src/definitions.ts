import type { AuditDefinition, AuditKind } from "./audit-definition.ts";
import { applicationsAudit } from "./edge/edge-audit.ts";
import { edgePresenter } from "./edge/edge-presenter.ts";
import { UnknownAuditError } from "./errors.ts";
import type { Finding } from "./finding.ts";
import { expiredAudit, failingAudit } from "./keb/keb-audits.ts";
import { kebPresenter } from "./keb/keb-presenter.ts";
import type { FlatFinding, Presenter } from "./presenter.ts";

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

// The presenters that wrote findings in the flat form (records before labels, digest v1 rows);
// each takes only its own, so the first that answers is the one.
const FLAT_READERS: readonly Presenter[] = [edgePresenter, kebPresenter];

/**
 * A finding written in the flat form (a snapshot, report or structured digest v1 row before
 * labels) as it is today, with the presenter that reads it.
 */
export function fromFlat(flat: FlatFinding): { finding: Finding; presenter: Presenter } {
  for (const presenter of FLAT_READERS) {
    const finding = presenter.fromFlat(flat);
    if (finding) return { finding, presenter };
  }
  // Unreachable: the KEB presenter reads every flat finding without an edge detail.
  throw new TypeError("a flat finding no presenter reads");
}

/**
 * The presenter of a structured digest v1 group: its audit's own, when the audit is one of
 * `audits` and brings its own; else, as v1 was written by the KEB and edge audits, the edge's
 * when the group or a member carries the edge mark, and KEB's otherwise.
 */
export function digestPresenter(
  audit: string,
  audits: readonly AuditKind[],
  group: { edge?: true | undefined },
  members: ReadonlyArray<{ edge?: unknown }>,
): Presenter {
  const own = audits.find((a) => a.name === audit)?.presenter;
  if (own && !FLAT_READERS.includes(own)) return own;
  return group.edge || members.some((t) => t.edge !== undefined) ? edgePresenter : kebPresenter;
}

/** A digest v1 row as a finding: read by `presenter` when it can, else by whoever wrote it. */
export function readRow(row: FlatFinding, presenter: Presenter): { finding: Finding; presenter: Presenter } {
  const finding = presenter.fromFlat(row);
  return finding ? { finding, presenter } : fromFlat(row);
}
