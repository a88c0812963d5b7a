import type { SnapshotChange, SnapshotEntry, SnapshotFingerprint } from "@fleet-auditor/audit";

/**
 * The version an audit's snapshot has while a commit writes it: no one may keep what they read
 * then. Every commit puts `writing:<token>` before its first item and `<token>` after its last.
 */
export const WRITING = "writing:";

/** The version of a snapshot no commit has marked yet (a new table, or one from before versions). */
export const UNMARKED = "";

/**
 * Past this age a kept snapshot is read again, whatever its version says: an item changed from
 * outside the product (an operator in the console) is seen within the hour.
 */
const MAX_AGE_MS = 60 * 60_000;

interface Kept {
  version: string;
  entries: Map<string, SnapshotEntry>;
  keptAt: number;
}

/**
 * The snapshot each audit had at a version of its marker item, kept between the runs of a warm
 * process (a Lambda keeps its store): a run that finds the marker unchanged needs no read of
 * thousands of items. Entries are frozen, and each caller gets a Map of its own: nothing a caller
 * does can change what the next run starts from.
 */
export class SnapshotCache {
  readonly #kept = new Map<string, Kept>();
  readonly #prints = new Map<string, { version: string; print: SnapshotFingerprint }>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** What is kept for `audit` at `version`, or undefined: read it (and `keep` it). */
  get(audit: string, version: string): Map<string, SnapshotEntry> | undefined {
    const kept = this.#kept.get(audit);
    if (!kept || kept.version !== version || version.startsWith(WRITING)) return undefined;
    if (this.#now() - kept.keptAt > MAX_AGE_MS) return undefined;
    return new Map(kept.entries);
  }

  /**
   * Keeps what a full read returned under the version read before it began (a commit marks the
   * version before it writes, so a read that overlapped one is kept under a version that is gone);
   * nothing is kept while a commit is under way. Returns the entries, frozen, in a Map of the caller's.
   */
  keep(audit: string, version: string, entries: Map<string, SnapshotEntry>): Map<string, SnapshotEntry> {
    for (const entry of entries.values()) deepFreeze(entry);
    if (version.startsWith(WRITING)) this.#kept.delete(audit);
    else this.#kept.set(audit, { version, entries, keptAt: this.#now() });
    return new Map(entries);
  }

  /**
   * What is kept at `from` with the changes applied: the snapshot after a commit that began at
   * `from`, or undefined when nothing (young enough) is kept at `from`: then nothing can be said
   * of it. The kept snapshot is unchanged until `settled`.
   */
  applied(
    audit: string,
    from: string,
    changes: readonly SnapshotChange[],
  ): Map<string, SnapshotEntry> | undefined {
    const kept = this.#kept.get(audit);
    if (!kept || kept.version !== from || from.startsWith(WRITING)) return undefined;
    // Past the age at which `get` reads the table again, no fingerprint is drawn from it either.
    if (this.#now() - kept.keptAt > MAX_AGE_MS) return undefined;
    const after = new Map(kept.entries);
    for (const c of changes) {
      if (c.op === "put") after.set(c.entry.key, deepFreeze(structuredClone(c.entry)));
      else after.delete(c.key);
    }
    return after;
  }

  /**
   * After a commit that moved the marker from `from` to `to` with no other commit between: its
   * `applied` snapshot (and the fingerprint written with it) is the snapshot at `to`, kept as old
   * as the read it began from.
   */
  settled(
    audit: string,
    from: string,
    to: string,
    after: Map<string, SnapshotEntry>,
    print?: SnapshotFingerprint,
  ): void {
    const kept = this.#kept.get(audit);
    if (!kept || kept.version !== from) {
      this.forget(audit);
      return;
    }
    this.#kept.set(audit, { version: to, entries: after, keptAt: kept.keptAt });
    if (print) this.#prints.set(audit, { version: to, print });
    else this.#prints.delete(audit);
  }

  /** The fingerprint kept for `audit`, at the version it describes. */
  fingerprint(audit: string): { version: string; print: SnapshotFingerprint } | undefined {
    return this.#prints.get(audit);
  }

  /** Keeps a fingerprint read with `version` (never one of a commit under way). */
  keepFingerprint(audit: string, version: string, print: SnapshotFingerprint): void {
    if (!version.startsWith(WRITING)) this.#prints.set(audit, { version, print });
  }

  forget(audit: string): void {
    this.#kept.delete(audit);
    this.#prints.delete(audit);
  }
}

function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return value;
  for (const inner of Object.values(value)) deepFreeze(inner);
  return Object.freeze(value);
}
