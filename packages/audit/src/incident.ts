import { createHash } from "node:crypto";
import { type Finding, labelOf } from "./finding.ts";
import type { EndedEpisode, Flapping } from "./incident-record.ts";
import { DEFAULT_ROUTE, type Route, routingLabels } from "./route.ts";
import type { IncidentRef, SnapshotEntry } from "./snapshot.ts";

// An incident is what an on-call person follows from start to end, on one route: opened by the
// first finding that fires on the route with a given set of the route's `groupBy` values while
// none with those values is open; later findings with the same values join it; a finding stays
// in the incident it fired in until it resolves, whatever its state or reason becomes; it ends
// with its last member. Its key hashes where it is (landscape, audit, route, values) and when it
// opened, so it is stable for the whole episode and never reused by the next one with the same
// values. The default route's keys have no route in their hash: they are the keys of before routes.

/** Where incidents are: the landscape and audit. */
export interface IncidentScope {
  landscape?: string;
  audit: string;
}

/** The incidents that ended lately (`EndedEpisode`), and when one that opens is flapping. */
export interface RecentEpisodes extends Flapping {
  ended: readonly EndedEpisode[];
}

// Entries fired before incidents had keys: one incident per set of values, opened "before".
const BEFORE_INCIDENTS = "before-incidents";

/** A firing entry's incident on a route, as the snapshot keeps it (undefined: not on it). */
function storedIncident(entry: SnapshotEntry, route: string): IncidentRef | undefined {
  return route === DEFAULT_ROUTE ? entry.incident : entry.routes?.[route];
}

const valuesKey = (values: Readonly<Record<string, string>>): string =>
  JSON.stringify(Object.entries(values));

/**
 * One route's incidents open before a run, by their values: each firing entry's own, or, on the
 * default route, for an entry that fired before incidents had keys, the one incident its values
 * make (stable across runs, so an upgrade threads nothing differently from run to run).
 */
export class RouteIncidents {
  readonly route: Route;
  readonly #open = new Map<string, IncidentRef>();
  // A run asks for an entry's incident several times; those that fired before incidents share
  // one per set of values, hashed once.
  readonly #before = new Map<string, IncidentRef>();
  readonly #scope: IncidentScope;
  /** Incidents this run opened, in the order they opened. */
  readonly opened: IncidentRef[] = [];
  // This route's episodes that ended within the flapping window, by their values.
  readonly #ended = new Map<string, EndedEpisode[]>();
  readonly #flapAfter: number;

  constructor(
    scope: IncidentScope,
    route: Route,
    previous: Iterable<SnapshotEntry>,
    episodes?: RecentEpisodes & { now: string },
  ) {
    this.#scope = scope;
    this.route = route;
    this.#flapAfter = episodes?.after ?? Number.POSITIVE_INFINITY;
    if (episodes) {
      const from = new Date(Date.parse(episodes.now) - episodes.windowMs).toISOString();
      for (const e of episodes.ended) {
        if (e.route !== route.name || e.openedAt < from || e.endedAt < from) continue;
        const key = valuesKey(e.values);
        this.#ended.set(key, [...(this.#ended.get(key) ?? []), e]);
      }
    }
    for (const entry of previous) {
      if (entry.phase !== "firing") continue;
      const incident = this.of(entry);
      if (!incident) continue;
      const key = valuesKey(incident.values);
      const known = this.#open.get(key);
      // Two open incidents with one set of values cannot both be joined: the older one is.
      if (!known || incident.openedAt < known.openedAt) this.#open.set(key, incident);
    }
  }

  /** The incident a firing entry belongs to on this route; undefined when it is not on it. */
  of(entry: SnapshotEntry): IncidentRef | undefined {
    const stored = storedIncident(entry, this.route.name);
    if (stored || this.route.name !== DEFAULT_ROUTE) return stored;
    const values = this.#values(entry.finding);
    const key = valuesKey(values);
    let incident = this.#before.get(key);
    if (!incident) {
      incident = this.#incident(values, BEFORE_INCIDENTS);
      this.#before.set(key, incident);
    }
    return incident;
  }

  /** The incident a finding that fires now on this route joins, or opens at `at`. */
  join(finding: Finding, at: string): IncidentRef {
    const values = this.#values(finding);
    const key = valuesKey(values);
    let incident = this.#open.get(key);
    if (!incident) {
      incident = this.#incident(values, at);
      const flapping = this.#flapping(key);
      if (flapping) incident.flapping = flapping;
      this.#open.set(key, incident);
      this.opened.push(incident);
    }
    return incident;
  }

  /**
   * An incident opening with these values is flapping when the window holds `after` episodes with
   * them, it included: it posts in the thread of the latest one before it.
   */
  #flapping(values: string): IncidentRef["flapping"] {
    const ended = this.#ended.get(values);
    if (!ended || ended.length + 1 < this.#flapAfter) return undefined;
    const latest = ended.reduce((a, b) => (b.endedAt > a.endedAt ? b : a));
    return { episodes: ended.length + 1, postedIn: latest.thread };
  }

  /** The route's `groupBy` values of a finding, in `groupBy` order. */
  #values(f: Finding): Record<string, string> {
    const labels = routingLabels(this.#scope.audit, f);
    return Object.fromEntries(this.route.groupBy.map((l) => [l, labelOf(labels, l)]));
  }

  /** The incident opened at `openedAt` with `values`. */
  #incident(values: Readonly<Record<string, string>>, openedAt: string): IncidentRef {
    const { landscape = "", audit } = this.#scope;
    const where =
      this.route.name === DEFAULT_ROUTE
        ? [landscape, audit, Object.entries(values), openedAt]
        : [landscape, audit, this.route.name, Object.entries(values), openedAt];
    return { key: incidentKey(where), openedAt, values };
  }
}

/** `inc-` and 24 characters of a SHA-256 of what makes an incident (or a roll-up) one. */
export function incidentKey(identity: unknown[]): string {
  return `inc-${createHash("sha256").update(JSON.stringify(identity)).digest("base64url").slice(0, 24)}`;
}

/** Where an entry's incident is on every route it is on, as the snapshot keeps it. */
export function withIncidents(entry: SnapshotEntry, refs: ReadonlyMap<string, IncidentRef>): SnapshotEntry {
  const { incident: _i, routes: _r, ...rest } = entry;
  const own = refs.get(DEFAULT_ROUTE);
  const others = [...refs].filter(([name]) => name !== DEFAULT_ROUTE);
  return {
    ...rest,
    ...(own ? { incident: own } : {}),
    ...(others.length ? { routes: Object.fromEntries(others) } : {}),
  };
}
