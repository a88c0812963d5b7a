import { fromFlat } from "./definitions.ts";
import type { Finding } from "./finding.ts";
import type { FlatFinding, Presenter } from "./presenter.ts";
import type { SnapshotEntry } from "./snapshot.ts";

// A snapshot item must be readable by the release before and after this one. Items written
// before labels keep their finding in the flat form, under `instanceID`: they are read as they
// are today, so an upgrade tells, changes and resolves nothing by itself
// (`test/integration/use-cases/upgrade.test.ts`). Items written today carry that form too, beside
// today's fields, so a rollback reads what this release wrote and tells nothing by itself either
// (`test/integration/use-cases/rollback.test.ts`).

/** A snapshot entry as a store holds it: today's (`storableEntry`), or one written before labels. */
export type StoredEntry = SnapshotEntry | (Omit<SnapshotEntry, "key" | "finding"> & StoredBeforeLabels);

interface StoredBeforeLabels {
  instanceID: string;
  finding: FlatFinding;
}

/** A stored snapshot entry as the engine reads it. */
export function storedEntry(stored: StoredEntry): SnapshotEntry {
  if ("key" in stored) {
    const { key, phase, finding, flaggedRuns, clearRuns, firstSeenAt, incident, notifiedAt, version } =
      stored;
    return {
      key,
      phase,
      finding: findingOf(finding),
      flaggedRuns,
      clearRuns,
      firstSeenAt,
      ...(incident !== undefined ? { incident } : {}),
      notifiedAt,
      version,
    };
  }
  const { instanceID, finding, ...rest } = stored;
  return { key: instanceID, ...rest, finding: fromFlat(finding) };
}

/**
 * The entry as it is stored: today's fields, and `instanceID` with the finding's flat form (its
 * presenter's) for the release before labels.
 */
export function storableEntry(
  entry: SnapshotEntry,
  presenter: Presenter,
): SnapshotEntry & StoredBeforeLabels {
  const { labels: _l, ...flat } = presenter.flat(entry.finding);
  return { ...entry, instanceID: entry.key, finding: { ...flat, ...entry.finding } };
}

/** Today's fields of a stored finding, without the flat form kept beside them. */
function findingOf(stored: Finding): Finding {
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
