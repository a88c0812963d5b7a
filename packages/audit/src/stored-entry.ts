import { fromFlat } from "./definitions.ts";
import type { FlatFinding } from "./presenter.ts";
import type { SnapshotEntry } from "./snapshot.ts";

// Snapshot items written before labels keep their finding in the flat form, under `instanceID`.
// They are read as they are today, so that an upgrade tells, changes and resolves nothing by
// itself (`test/integration/runner/upgrade.test.ts`): the item's key does not change, and the
// finding reads back equal to the one a run builds today.

/** A snapshot entry as a store holds it: today's, or one written before labels. */
export type StoredEntry = SnapshotEntry | (Omit<SnapshotEntry, "key" | "finding"> & StoredBeforeLabels);

interface StoredBeforeLabels {
  instanceID: string;
  finding: FlatFinding;
}

/** A stored snapshot entry as the engine reads it. */
export function storedEntry(stored: StoredEntry): SnapshotEntry {
  if (!("instanceID" in stored)) return stored;
  const { instanceID, finding, ...rest } = stored;
  return { key: instanceID, ...rest, finding: fromFlat(finding).finding } as SnapshotEntry;
}
