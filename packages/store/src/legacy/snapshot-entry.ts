import type { Finding, SnapshotEntry } from "@fleet-auditor/audit";
import { type FlatFinding, findingFromFlat } from "./flat-finding.ts";

// @deprecated with the flat form (`flat-finding.ts`): goes in the first release after 2027-03-31.
// Releases before 2026-12 stored each snapshot entry's finding in the flat form: before labels
// alone, under `instanceID`; since labels beside the model's fields. Either reads as today's
// entry, so an upgrade tells, changes and resolves nothing by itself.

type StoredBeforeLabels = Omit<SnapshotEntry, "key" | "finding"> & {
  instanceID: string;
  finding: FlatFinding;
};

/** A stored snapshot entry, of this release or one before, as the engine reads it. */
export function snapshotEntryOf(stored: SnapshotEntry | StoredBeforeLabels): SnapshotEntry {
  if (!("key" in stored)) {
    const { instanceID, finding, ...rest } = stored;
    return { key: instanceID, ...rest, finding: findingFromFlat(finding) };
  }
  const {
    key,
    phase,
    finding,
    flaggedRuns,
    clearRuns,
    firstSeenAt,
    incident,
    routes,
    remindedOn,
    notifiedAt,
    version,
  } = stored;
  return {
    key,
    phase,
    finding: modelFields(finding),
    flaggedRuns,
    clearRuns,
    firstSeenAt,
    ...(incident !== undefined ? { incident } : {}),
    ...(routes !== undefined ? { routes } : {}),
    ...(remindedOn !== undefined ? { remindedOn } : {}),
    notifiedAt,
    version,
  };
}

/** The model's fields of a stored finding, without the flat form once kept beside them. */
function modelFields(stored: Finding): Finding {
  const { key, labels, severity, startsAt, summary, detail } = stored;
  return {
    key,
    labels,
    severity,
    ...(startsAt !== undefined ? { startsAt } : {}),
    summary,
    ...(detail !== undefined ? { detail } : {}),
  };
}
