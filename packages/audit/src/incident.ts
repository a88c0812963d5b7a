import { createHash } from "node:crypto";
import { type Finding, labelOf } from "./finding.ts";
import type { IncidentRef, SnapshotEntry } from "./snapshot.ts";

// An incident is what an on-call person follows from start to end: opened by the first finding
// that fires with a given set of the audit's `groupBy` values while none with those values is
// open; later findings with the same values join it; a finding stays in the incident it fired in
// until it resolves, whatever its state or reason becomes; it ends with its last member. Its key
// hashes where it is (landscape, audit, values) and when it opened, so it is stable for the whole
// episode and never reused by the next one with the same values.

/** Where incidents are: the landscape and audit, and the labels that make one. */
export interface IncidentScope {
  landscape?: string;
  audit: string;
  groupBy: readonly string[];
}

// Entries fired before incidents had keys: one incident per set of values, opened "before".
const BEFORE_INCIDENTS = "before-incidents";

/** The `groupBy` values of a finding, in `groupBy` order. */
function incidentValues(scope: IncidentScope, f: Finding): Record<string, string> {
  return Object.fromEntries(scope.groupBy.map((l) => [l, labelOf(f.labels, l)]));
}

/** The incident opened at `openedAt` with `values`. */
function incidentOf(
  scope: IncidentScope,
  values: Readonly<Record<string, string>>,
  openedAt: string,
): IncidentRef {
  const identity = JSON.stringify([scope.landscape ?? "", scope.audit, Object.entries(values), openedAt]);
  return {
    key: `inc-${createHash("sha256").update(identity).digest("base64url").slice(0, 24)}`,
    openedAt,
    values,
  };
}

const valuesKey = (values: Readonly<Record<string, string>>): string =>
  JSON.stringify(Object.entries(values));

/**
 * The incidents open before a run, by their values: each firing entry's own, or, for an entry
 * that fired before incidents had keys, the one incident its values make (stable across runs, so
 * an upgrade threads nothing differently from run to run).
 */
export class OpenIncidents {
  readonly #open = new Map<string, IncidentRef>();
  // A run asks for an entry's incident several times; those that fired before incidents share
  // one per set of values, hashed once.
  readonly #before = new Map<string, IncidentRef>();
  readonly #scope: IncidentScope;

  constructor(scope: IncidentScope, previous: Iterable<SnapshotEntry>) {
    this.#scope = scope;
    for (const entry of previous) {
      if (entry.phase !== "firing") continue;
      const incident = this.of(entry);
      const key = valuesKey(incident.values);
      const known = this.#open.get(key);
      // Two open incidents with one set of values cannot both be joined: the older one is.
      if (!known || incident.openedAt < known.openedAt) this.#open.set(key, incident);
    }
  }

  /** The incident a firing entry belongs to. */
  of(entry: SnapshotEntry): IncidentRef {
    if (entry.incident) return entry.incident;
    const values = incidentValues(this.#scope, entry.finding);
    const key = valuesKey(values);
    let incident = this.#before.get(key);
    if (!incident) {
      incident = incidentOf(this.#scope, values, BEFORE_INCIDENTS);
      this.#before.set(key, incident);
    }
    return incident;
  }

  /** The incident a finding that fires now joins, or opens at `at`. */
  join(finding: Finding, at: string): IncidentRef {
    const values = incidentValues(this.#scope, finding);
    const key = valuesKey(values);
    let incident = this.#open.get(key);
    if (!incident) {
      incident = incidentOf(this.#scope, values, at);
      this.#open.set(key, incident);
    }
    return incident;
  }
}
