import type { IncidentRecord } from "./incident-record.ts";

// What `incidents stats` and the report page say of a window: how many incidents opened and
// ended, how long they took to resolve, broken down by audit, reason and region, which were the
// noisiest and which keep coming back. Pure: the window's end is given, never read from a clock.

/** Times to resolve of the incidents that ended in a window; no percentile when none ended. */
interface ResolveTimes {
  count: number;
  /** Nearest-rank percentiles of `durationMs`, in ms; absent (not 0) when `count` is 0. */
  p50Ms?: number;
  p90Ms?: number;
}

/** One value of a breakdown (an audit, a reason, a region) and its incidents in the window. */
export interface IncidentBreakdown {
  value: string;
  opened: number;
  ended: number;
  /** Over the incidents of this value that ended in the window; absent when none did. */
  p50Ms?: number;
  p90Ms?: number;
}

/** An incident among the noisiest: the most events in its timeline. */
interface NoisyIncident {
  key: string;
  audit: string;
  route: string;
  values: Readonly<Record<string, string>>;
  events: number;
  members: number;
  pages: number;
  reminders: number;
  changes: number;
}

/** Episodes with the same audit, route and values that opened and ended in the window, often. */
interface FlappingIncidents {
  audit: string;
  route: string;
  values: Readonly<Record<string, string>>;
  episodes: number;
  /** The episodes' keys, oldest opening first. */
  keys: string[];
}

/** A window's incident statistics. */
export interface IncidentStats {
  /** The window (ISO). */
  since: string;
  until: string;
  /** Incidents opened in the window, ended in it, and still open at its end. */
  opened: number;
  ended: number;
  open: number;
  timeToResolve: ResolveTimes;
  /** Largest `opened` first. */
  byAudit: IncidentBreakdown[];
  byReason: IncidentBreakdown[];
  byRegion: IncidentBreakdown[];
  /** Most events first. */
  noisiest: NoisyIncident[];
  /** Most episodes first. */
  flapping: FlappingIncidents[];
}

/** The breakdown's value of an incident whose members do not share the label. */
const MIXED = "(mixed)";
const DEFAULT_FLAP_AFTER = 3;
const DEFAULT_NOISIEST = 5;

/**
 * Statistics of the incidents of `records` in `window` (both ends included):
 * - `opened`/`ended`: incidents whose `openedAt`/`endedAt` falls in the window; `open`: opened by
 *   `until` and not ended by then.
 * - `timeToResolve`: over the incidents that ended in the window, `durationMs` (`endedAt −
 *   openedAt`); percentiles by the nearest-rank method (the smallest value with at least p% of
 *   the values at or below it: p50 of [1, 2, 3, 4] is 2), absent when none ended.
 * - `byAudit`, `byReason`, `byRegion`: the same per value, largest `opened` first (then `ended`,
 *   then the value). An incident's reason or region is its `values[label]` when it was grouped by
 *   the label, else its members' `common[label]`, else `(mixed)`: its members have several.
 * - `noisiest`: the `options.noisiest` (default 5) incidents of the window with the most events
 *   (ties: more members, then the key).
 * - `flapping`: episodes with the same audit, route and values that both opened and ended in the
 *   window at least `options.flapAfter` times (default 3, at least 2), most episodes first; each
 *   episode still counts as one opening and one end above.
 *
 * Records that ended before the window or opened after it are left out of every figure.
 */
export function incidentStats(
  records: readonly IncidentRecord[],
  window: { since: Date; until: Date },
  options: { flapAfter?: number; noisiest?: number } = {},
): IncidentStats {
  const since = window.since.getTime();
  const until = window.until.getTime();
  const within = (t: number): boolean => t >= since && t <= until;
  // Each record's times parsed once: ten thousand records are sorted and filtered by them.
  const inWindow: Timed[] = records
    .map((r) => ({ r, opened: Date.parse(r.openedAt), ended: endedAt(r) }))
    .filter((t) => t.opened <= until && (t.ended === undefined || t.ended >= since));
  const openedIn = inWindow.filter((t) => within(t.opened));
  const endedIn = inWindow.filter((t) => t.ended !== undefined && within(t.ended));
  const endedSet = new Set(endedIn);
  const open = inWindow.filter((t) => t.ended === undefined || t.ended > until);
  const breakdown = (groupOf: (r: IncidentRecord) => string): IncidentBreakdown[] =>
    breakdownBy(openedIn, endedIn, groupOf);
  return {
    since: window.since.toISOString(),
    until: window.until.toISOString(),
    opened: openedIn.length,
    ended: endedIn.length,
    open: open.length,
    timeToResolve: resolveTimes(endedIn),
    byAudit: breakdown((r) => r.audit),
    byReason: breakdown((r) => labelValue(r, "reason")),
    byRegion: breakdown((r) => labelValue(r, "region")),
    noisiest: noisiest(inWindow, Math.max(0, Math.floor(options.noisiest ?? DEFAULT_NOISIEST))),
    flapping: flapping(
      openedIn.filter((r) => endedSet.has(r)),
      Math.max(2, Math.floor(options.flapAfter ?? DEFAULT_FLAP_AFTER)),
    ),
  };
}

/** A record and its times (ms), parsed once. */
interface Timed {
  r: IncidentRecord;
  opened: number;
  ended: number | undefined;
}

/** When it ended (ms), undefined while open or when its end does not parse. */
function endedAt(r: IncidentRecord): number | undefined {
  if (r.endedAt === undefined) return undefined;
  const t = Date.parse(r.endedAt);
  return Number.isNaN(t) ? undefined : t;
}

/** Its time to resolve: `durationMs`, or worked out from its times when a record lacks it. */
const durationOf = (t: Timed): number => t.r.durationMs ?? (t.ended ?? Number.NaN) - t.opened;

/** The nearest-rank percentile of sorted values (`p` in 0..100]; undefined for none. */
function percentile(sorted: readonly number[], p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

function resolveTimes(ended: readonly Timed[]): ResolveTimes {
  const sorted = ended
    .map(durationOf)
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const p50Ms = percentile(sorted, 50);
  const p90Ms = percentile(sorted, 90);
  return {
    count: sorted.length,
    ...(p50Ms === undefined ? {} : { p50Ms }),
    ...(p90Ms === undefined ? {} : { p90Ms }),
  };
}

/** A label's value as statistics break incidents down by it (the record's data is untrusted). */
function labelValue(r: IncidentRecord, label: string): string {
  if (Object.hasOwn(r.values, label)) return r.values[label] as string;
  if (Object.hasOwn(r.common, label)) return r.common[label] as string;
  return MIXED;
}

function breakdownBy(
  opened: readonly Timed[],
  ended: readonly Timed[],
  groupOf: (r: IncidentRecord) => string,
): IncidentBreakdown[] {
  const rows = new Map<string, { opened: number; ended: Timed[] }>();
  const row = (value: string) => {
    const found = rows.get(value) ?? { opened: 0, ended: [] };
    rows.set(value, found);
    return found;
  };
  for (const t of opened) row(groupOf(t.r)).opened++;
  for (const t of ended) row(groupOf(t.r)).ended.push(t);
  return [...rows]
    .map(([value, { opened, ended }]) => {
      const { count, ...times } = resolveTimes(ended);
      return { value, opened, ended: ended.length, ...times };
    })
    .sort((a, b) => b.opened - a.opened || b.ended - a.ended || compare(a.value, b.value));
}

function noisiest(timed: readonly Timed[], n: number): NoisyIncident[] {
  return timed
    .map((t) => t.r)
    .sort((a, b) => b.events - a.events || b.members - a.members || compare(a.key, b.key))
    .slice(0, n)
    .map(({ key, audit, route, values, events, members, pages, reminders, changes }) => ({
      key,
      audit,
      route,
      values,
      events,
      members,
      pages,
      reminders,
      changes,
    }));
}

function flapping(episodes: readonly Timed[], flapAfter: number): FlappingIncidents[] {
  const groups = new Map<string, Timed[]>();
  for (const t of episodes) {
    const r = t.r;
    // The values sorted by label: the same group whatever order a record's keys were stored in.
    const values = Object.entries(r.values).sort(([a], [b]) => compare(a, b));
    const id = JSON.stringify([r.audit, r.route, values]);
    const group = groups.get(id);
    if (group) group.push(t);
    else groups.set(id, [t]);
  }
  return [...groups.values()]
    .filter((group) => group.length >= flapAfter)
    .map((group) => {
      const sorted = group.sort((a, b) => a.opened - b.opened || compare(a.r.key, b.r.key)).map((t) => t.r);
      const first = sorted[0] as IncidentRecord;
      return {
        audit: first.audit,
        route: first.route,
        values: first.values,
        episodes: sorted.length,
        keys: sorted.map((r) => r.key),
      };
    })
    .sort(
      (a, b) =>
        b.episodes - a.episodes ||
        compare(a.audit, b.audit) ||
        compare(a.route, b.route) ||
        compare(JSON.stringify(a.values), JSON.stringify(b.values)),
    );
}

/** Code-unit order: the same on every machine, unlike `localeCompare`. */
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
