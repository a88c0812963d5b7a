import { type Finding, SEVERITY_RANK, stateOf } from "./finding.ts";
import {
  type IncidentScope,
  incidentKey,
  type RecentEpisodes,
  RouteIncidents,
  withIncidents,
} from "./incident.ts";
import { type InhibitRule, inhibitor } from "./inhibition.ts";
import type { AlertPolicy } from "./policy.ts";
import { DEFAULT_ROUTE, incidentLabels, MAX_NEW_INCIDENTS, type Route, routesOf } from "./route.ts";
import { type Silence, silencing } from "./silence.ts";
import {
  heldBack,
  type IncidentRef,
  type SnapshotChange,
  type SnapshotEntry,
  type Transition,
  type TransitionIncident,
  type TransitionRef,
} from "./snapshot.ts";

/** Everything one diff needs; time is an input, nothing here reads a clock. */
export interface DiffInput {
  audit: string;
  /** The previous snapshot of this audit, by key. */
  previous: ReadonlyMap<string, SnapshotEntry>;
  /** This run's findings (one per key). */
  findings: readonly Finding[];
  /** What makes two findings the same problem (the audit presenter's `problemKey`). */
  problemKey: (f: Finding) => string;
  /**
   * Where incidents are: the landscape, and the routes (`route.ts`), each with incidents of its
   * own; without `routes`, one default route grouped by `groupBy` (the audit's). Every firing
   * finding joins or opens one on each route it takes, and its transitions carry them. Without
   * it, transitions carry no incident.
   */
  incidents?: Omit<IncidentScope, "audit"> & {
    groupBy?: readonly string[];
    routes?: readonly Route[];
    /**
     * The incidents that ended lately and when one that opens is flapping: it then posts in the
     * thread of the episode before it (`IncidentRef.flapping`). Without it, none is.
     */
    episodes?: RecentEpisodes;
  };
  /** False when the scan could not be verified complete: then nothing resolves or is deleted. */
  complete: boolean;
  /**
   * Whether the run looked at an entry's finding (a filtered run looks at part of the fleet):
   * entries outside are kept as they are, like after an incomplete scan. Default: every entry.
   */
  inScope?: (entry: SnapshotEntry) => boolean;
  now: Date;
  policy: AlertPolicy;
  silences?: readonly Silence[];
  /**
   * The audit's inhibition rules: a finding that fires now holds back the findings they name
   * (`inhibition.ts`), as a silence would, without resolving them.
   */
  inhibitRules?: readonly InhibitRule[];
}

/** The transitions to notify and the snapshot writes; an unchanged finding yields neither. */
export interface DiffResult {
  transitions: Transition[];
  changes: SnapshotChange[];
  /**
   * Pages a release before routes opened under the default route's incident keys, to be resolved
   * now that the pager route pages these findings (once: when they join it), each with the
   * transitions of its findings in this run, so that a refused resolve is sent again.
   */
  legacyPages?: LegacyPage[];
}

/** A page opened under an incident key of before routes, resolved once its findings joined a pager route. */
export interface LegacyPage {
  key: string;
  startsAt: string;
  openedAt: string;
  refs: TransitionRef[];
}

/**
 * Compares a run's findings with the previous snapshot. Findings move pending → firing
 * after `fireAfterRuns`; firing ones emit `changed` when their state or failing operation changes
 * and `reminder` after `repeatIntervalMs`; absent ones resolve after `resolveAfterRuns`, but only
 * when the scan was complete. A finding that fires joins the open incident of its `groupBy`
 * values, or opens one, and stays in it until it resolves. Writes tied to a transition carry its
 * `TransitionRef`: they are committed only once that transition was told (`committable`), so a
 * failed publish is retried. A transition held back (silenced, or inhibited by a finding that
 * fires now) tells nobody: a finding held back since it fired stays untold (`notifiedAt` null),
 * so the first run after its release tells it as `firing`.
 */
export function diffSnapshot(input: DiffInput): DiffResult {
  const { previous, now, policy, problemKey } = input;
  const at = now.toISOString();
  const transitions: Transition[] = [];
  const changes: SnapshotChange[] = [];
  const silences = input.silences ?? [];
  const scope = input.incidents && { ...input.incidents, audit: input.audit };
  const routes: readonly Route[] = !scope
    ? []
    : (scope.routes ?? [
        {
          name: DEFAULT_ROUTE,
          receiver: "incidents",
          matchers: [],
          groupBy: scope.groupBy ?? [],
          continue: true,
          maxNew: MAX_NEW_INCIDENTS,
        },
      ]);
  const episodes = scope?.episodes && { ...scope.episodes, now: at };
  const books = scope ? routes.map((r) => new RouteIncidents(scope, r, previous.values(), episodes)) : [];
  const inhibiting = inhibitor(input.inhibitRules ?? [], firingNow(input));
  // Each incident's members' onsets, for its `startsAt`: the earliest of them.
  const onsets = new Map<string, string>();
  const onset = (incident: IncidentRef, since: string): void => {
    const known = onsets.get(incident.key);
    if (!known || since < known) onsets.set(incident.key, since);
  };
  /** A firing entry's incidents, by route name. */
  const refsOf = (entry: SnapshotEntry): Map<string, IncidentRef> => {
    const refs = new Map<string, IncidentRef>();
    for (const book of books) {
      const ref = book.of(entry);
      if (ref) refs.set(book.route.name, ref);
    }
    return refs;
  };
  /** The routes a firing finding takes that it is not on yet, joined (or opened) now. */
  const joins = (finding: Finding, on: ReadonlyMap<string, IncidentRef>): Map<string, IncidentRef> => {
    const joined = new Map<string, IncidentRef>();
    if (!scope) return joined;
    const taken = new Set(routesOf(routes, input.audit, finding).map((r) => r.name));
    for (const book of books)
      if (taken.has(book.route.name) && !on.has(book.route.name))
        joined.set(book.route.name, book.join(finding, at));
    return joined;
  };
  // What each transition is news for: its incident on each route.
  const memberships = new Map<TransitionRef, Map<string, IncidentRef>>();
  // A silence or, for a finding flagged now, an inhibition holds a transition back; a resolve of
  // one no longer flagged is no target: inhibition never ends (nor hides the end of) a finding.
  const notify = (
    t: Omit<Transition, "silencedBy" | "inhibitedBy" | "incident" | "incidents">,
    finding: Finding,
    refs: ReadonlyMap<string, IncidentRef>,
    flagged = true,
  ): TransitionRef => {
    const silence = silencing(finding, input.audit, silences, now, incidentLabels(refs));
    const by = silence || !flagged ? undefined : inhibiting(finding);
    transitions.push(silence ? { ...t, silencedBy: silence.id } : by ? { ...t, inhibitedBy: by } : t);
    const ref = transitions.length - 1;
    if (refs.size) memberships.set(ref, new Map(refs));
    for (const incident of refs.values()) onset(incident, t.since);
    return ref;
  };
  const seen = new Set<string>();

  for (const finding of input.findings) {
    seen.add(finding.key);
    const prev = previous.get(finding.key);
    const firstSeenAt = prev?.firstSeenAt ?? at;
    const since = onsetOf(finding, firstSeenAt, at);
    const base = {
      key: finding.key,
      state: stateOf(finding),
      severity: finding.severity,
      finding,
      since,
      firstSeenAt,
    };
    if (!prev || prev.phase === "pending") {
      const flaggedRuns = (prev?.flaggedRuns ?? 0) + 1;
      const fires = flaggedRuns >= policy.fireAfterRuns;
      const refs = fires ? joins(finding, new Map()) : new Map<string, IncidentRef>();
      const entry: SnapshotEntry = withIncidents(
        {
          key: finding.key,
          phase: fires ? "firing" : "pending",
          finding,
          flaggedRuns,
          clearRuns: 0,
          firstSeenAt,
          notifiedAt: null,
          version: (prev?.version ?? 0) + 1,
        },
        refs,
      );
      if (!fires) {
        changes.push({ op: "put", entry });
        continue;
      }
      const index = notify({ ...base, kind: "firing", previousState: null }, finding, refs);
      entry.notifiedAt = heldBack(transitions[index]) ? null : at;
      changes.push({ op: "put", entry, transition: index });
      continue;
    }
    // Firing: it stays in the incidents it fired in, and joins the routes it came to match.
    const stayed = refsOf(prev);
    const joined = joins(finding, stayed);
    const refs = new Map([...stayed, ...joined]);
    const changed = problemKey(prev.finding) !== problemKey(finding);
    const neverSent = prev.notifiedAt === null;
    const due =
      prev.notifiedAt !== null && now.getTime() - Date.parse(prev.notifiedAt) >= policy.repeatIntervalMs;
    // Routes with a reminder interval of their own remind on it; the others (and the digest) on
    // the policy's.
    const remindOn = changed || neverSent ? refs : remindersDue(prev, stayed, due);
    if (!changed && !neverSent && !due && remindOn.size > 0 && joined.size === 0) {
      const index = notify(
        { ...base, kind: "reminder", previousState: stateOf(prev.finding), routesOnly: true },
        finding,
        remindOn,
      );
      const held = heldBack(transitions[index]);
      // Held back: nothing to tell and, steady, nothing to write.
      if (held && prev.clearRuns === 0) {
        transitions.pop();
        memberships.delete(index);
        continue;
      }
      const told = held ? {} : Object.fromEntries([...remindOn.keys()].map((r) => [r, at]));
      const entry = withIncidents(
        {
          ...prev,
          finding,
          clearRuns: 0,
          remindedOn: { ...prev.remindedOn, ...told },
          version: prev.version + 1,
        },
        refs,
      );
      changes.push({ op: "put", entry, transition: index });
      continue;
    }
    if (changed || neverSent || due) {
      const kind = changed ? "changed" : neverSent ? "firing" : "reminder";
      const previousState = kind === "firing" ? null : stateOf(prev.finding);
      const index = notify(
        { ...base, kind, previousState, ...(kind === "changed" ? { previous: prev.finding } : {}) },
        finding,
        kind === "reminder" ? new Map([...remindOn, ...joined]) : refs,
      );
      const held = heldBack(transitions[index]);
      // A still held back, unchanged finding is not written again: steady state writes nothing.
      if (held && !changed && prev.clearRuns === 0 && joined.size === 0) {
        transitions.pop();
        memberships.delete(index);
        continue;
      }
      const { remindedOn: _r, ...kept } = prev;
      const reminded = kind === "reminder" ? remindedOnAfter(prev, remindOn, held) : undefined;
      const entry = withIncidents(
        {
          ...kept,
          finding,
          clearRuns: 0,
          notifiedAt: held ? prev.notifiedAt : at,
          version: prev.version + 1,
          ...(reminded ? { remindedOn: reminded } : {}),
        },
        refs,
      );
      changes.push({ op: "put", entry, transition: index });
    } else if (joined.size > 0) {
      // News for the routes it joined alone: a page opens for it, chat and the digest hear nothing.
      const index = notify({ ...base, kind: "firing", previousState: null, joined: true }, finding, joined);
      const entry = withIncidents({ ...prev, clearRuns: 0, version: prev.version + 1 }, refs);
      changes.push({ op: "put", entry, transition: index });
    } else if (prev.clearRuns > 0) {
      changes.push({
        op: "put",
        entry: { ...prev, clearRuns: 0, version: prev.version + 1 },
      });
    }
  }

  // An incomplete scan cannot tell "gone" from "not listed": keep every absent entry as it is;
  // so does a filtered run for the entries outside its filter.
  if (input.complete) resolveAbsent();
  // Members without news count for their incident's start too.
  for (const prev of previous.values()) {
    if (prev.phase !== "firing") continue;
    const since = onsetOf(prev.finding, prev.firstSeenAt, at);
    for (const ref of refsOf(prev).values()) onset(ref, since);
  }
  // An incident's start is fixed when it opens: a later member with an older onset, or the end of
  // its oldest member, moves it no more.
  for (const book of books)
    for (const incident of book.opened) {
      const began = onsets.get(incident.key);
      if (began) incident.startsAt = began;
    }
  rollUpStorms();
  const after = incidentsAfter();
  const before = knownBefore();
  for (const [ref, refs] of memberships) {
    const t = transitions[ref] as Transition;
    const incidents: Record<string, TransitionIncident> = {};
    for (const [route, incident] of refs) incidents[route] = toldAs(incident, t, route);
    const own = incidents[DEFAULT_ROUTE];
    transitions[ref] = { ...t, ...(own ? { incident: own } : {}), incidents };
  }
  const legacyPages = legacy();
  return { transitions, changes, ...(legacyPages.length ? { legacyPages } : {}) };

  /**
   * The routes a firing finding without news is reminded on now: each with a reminder interval
   * of its own once it passed since its last reminder there (or since it was told), the others
   * when the policy's is `due`.
   */
  function remindersDue(
    prev: SnapshotEntry,
    on: ReadonlyMap<string, IncidentRef>,
    due: boolean,
  ): Map<string, IncidentRef> {
    const out = new Map<string, IncidentRef>();
    for (const [name, ref] of on) {
      const own = books.find((b) => b.route.name === name)?.route.repeatIntervalMs;
      if (own === undefined) {
        if (due) out.set(name, ref);
        continue;
      }
      const last = prev.remindedOn?.[name] ?? prev.notifiedAt;
      if (last !== null && now.getTime() - Date.parse(last) >= own) out.set(name, ref);
    }
    return out;
  }

  /** `remindedOn` once a reminder was told on `on`: routes of their own interval note it. */
  function remindedOnAfter(
    prev: SnapshotEntry,
    on: ReadonlyMap<string, IncidentRef>,
    held: boolean,
  ): Record<string, string> | undefined {
    const own = [...on.keys()].filter(
      (name) => books.find((b) => b.route.name === name)?.route.repeatIntervalMs !== undefined,
    );
    const kept = { ...prev.remindedOn, ...(held ? {} : Object.fromEntries(own.map((r) => [r, at]))) };
    return Object.keys(kept).length ? kept : undefined;
  }

  /** An incident as a transition of it tells it on `route`. */
  function toldAs(incident: IncidentRef, t: Transition, route: string): TransitionIncident {
    const firing = after.open.get(incident.key) ?? 0;
    const page = incident.thread ?? incident.key;
    const critical = books.find((b) => b.route.name === route)?.route.receiver === "critical";
    const was = before.has(page);
    const is = after.known.has(page);
    return {
      key: incident.key,
      startsAt: incident.startsAt ?? onsets.get(incident.key) ?? t.since,
      openedAt: incident.openedAt,
      values: incident.values,
      firing,
      ...(firing === 0 ? { ended: true as const } : {}),
      ...(incident.thread
        ? {
            thread: {
              key: incident.thread,
              firing: after.threads.get(incident.thread) ?? 0,
              ...(after.threads.has(incident.thread) ? {} : { ended: true as const }),
            },
          }
        : {}),
      ...(critical && was !== is ? { pager: is ? ("trigger" as const) : ("resolve" as const) } : {}),
      ...(incident.flapping ? { flapping: incident.flapping } : {}),
    };
  }

  /**
   * A storm: past its route's `maxNew`, the incidents this run opened share one roll-up, most
   * severe and largest told on their own first. Their news goes to the roll-up's thread (and
   * page) for as long as they last, so a partial recovery posts no top-level message for them.
   */
  function rollUpStorms(): void {
    for (const book of books) {
      if (book.opened.length <= book.route.maxNew) continue;
      const told = new Map<string, { severity: number; size: number }>();
      for (const [ref, refs] of memberships) {
        const incident = refs.get(book.route.name);
        const t = transitions[ref] as Transition;
        if (!incident || heldBack(t) || incident.openedAt !== at) continue;
        const known = told.get(incident.key) ?? { severity: 0, size: 0 };
        told.set(incident.key, {
          severity: Math.max(known.severity, SEVERITY_RANK[t.severity]),
          size: known.size + 1,
        });
      }
      const ranked = book.opened
        .filter((i) => told.has(i.key))
        .sort((a, b) => {
          const x = told.get(a.key) as { severity: number; size: number };
          const y = told.get(b.key) as { severity: number; size: number };
          return y.severity - x.severity || y.size - x.size || (a.key < b.key ? -1 : 1);
        });
      const thread = incidentKey([scope?.landscape ?? "", input.audit, book.route.name, "roll-up", at]);
      for (const incident of ranked.slice(book.route.maxNew)) incident.thread = thread;
    }
  }

  /** The final state of every firing entry once this run's writes are committed. */
  function firingAfter(): SnapshotEntry[] {
    const written = new Map<string, SnapshotEntry | undefined>();
    for (const c of changes)
      written.set(c.op === "put" ? c.entry.key : c.key, c.op === "put" ? c.entry : undefined);
    const out: SnapshotEntry[] = [];
    for (const prev of previous.values()) {
      const entry = written.has(prev.key) ? written.get(prev.key) : prev;
      if (entry?.phase === "firing") out.push(entry);
    }
    for (const entry of written.values())
      if (entry?.phase === "firing" && !previous.has(entry.key)) out.push(entry);
    return out;
  }

  /**
   * Once this run's writes are committed: how many members each incident keeps, and each roll-up
   * (across its incidents), and the pages (an incident's key, or its roll-up's) with a
   * member whose firing was told: what a pager has heard of.
   */
  function incidentsAfter(): { open: Map<string, number>; threads: Map<string, number>; known: Set<string> } {
    const state = {
      open: new Map<string, number>(),
      threads: new Map<string, number>(),
      known: new Set<string>(),
    };
    for (const entry of firingAfter())
      for (const ref of refsOf(entry).values()) {
        state.open.set(ref.key, (state.open.get(ref.key) ?? 0) + 1);
        if (ref.thread) state.threads.set(ref.thread, (state.threads.get(ref.thread) ?? 0) + 1);
        if (entry.notifiedAt !== null) state.known.add(ref.thread ?? ref.key);
      }
    return state;
  }

  /** The pages a pager had heard of before this run. */
  function knownBefore(): Set<string> {
    const known = new Set<string>();
    for (const prev of previous.values())
      if (prev.phase === "firing" && prev.notifiedAt !== null)
        for (const ref of refsOf(prev).values()) known.add(ref.thread ?? ref.key);
    return known;
  }

  /**
   * Pages opened before routes: a release before paged each critical incident of the default
   * route under its key. Findings on no route to the pager yet that were paged so (told,
   * critical) join one now; each such page is resolved once, with their transitions of this run.
   */
  function legacy(): LegacyPage[] {
    const defaults = books.find((b) => b.route.name === DEFAULT_ROUTE);
    const pagers = books.filter((b) => b.route.receiver === "critical" && b.route.name !== DEFAULT_ROUTE);
    if (!defaults || pagers.length === 0) return [];
    const byKey = new Map<string, LegacyPage>();
    const refsByKey = new Map<string, TransitionRef>();
    for (const [ref, t] of transitions.entries()) if (!refsByKey.has(t.key)) refsByKey.set(t.key, ref);
    for (const prev of previous.values()) {
      if (!toldCritical(prev) || pagers.some((b) => b.of(prev))) continue;
      const incident = defaults.of(prev);
      const ref = refsByKey.get(prev.key);
      if (!incident || ref === undefined) continue;
      let page = byKey.get(incident.key);
      if (!page) {
        page = {
          key: incident.key,
          startsAt: onsets.get(incident.key) ?? incident.openedAt,
          openedAt: incident.openedAt,
          refs: [],
        };
        byKey.set(incident.key, page);
      }
      page.refs.push(ref);
    }
    return [...byKey.values()];
  }

  function resolveAbsent(): void {
    for (const prev of previous.values()) {
      if (seen.has(prev.key)) continue;
      if (input.inScope && !input.inScope(prev)) continue;
      if (prev.phase === "pending") {
        changes.push({ op: "delete", key: prev.key });
        continue;
      }
      const clearRuns = prev.clearRuns + 1;
      if (clearRuns < policy.resolveAfterRuns) {
        changes.push({
          op: "put",
          entry: { ...prev, clearRuns, version: prev.version + 1 },
        });
        continue;
      }
      if (prev.notifiedAt === null) {
        // Never told anyone (held back throughout): forget it quietly.
        changes.push({ op: "delete", key: prev.key });
        continue;
      }
      const f = prev.finding;
      const since = onsetOf(f, prev.firstSeenAt, at);
      const index = notify(
        {
          kind: "resolved",
          key: f.key,
          state: stateOf(f),
          previousState: stateOf(f),
          severity: f.severity,
          finding: f,
          since,
          firstSeenAt: prev.firstSeenAt,
        },
        f,
        refsOf(prev),
        false,
      );
      changes.push({ op: "delete", key: prev.key, transition: index });
    }
  }
}

/**
 * A firing entry that is critical and was told (not silenced): the pager knows of it. Its writes
 * are committed only once told, so a run whose pager message was refused sees it untold again.
 */
function toldCritical(entry: SnapshotEntry): boolean {
  return entry.phase === "firing" && entry.notifiedAt !== null && entry.finding.severity === "critical";
}

/**
 * The findings that fire now, and so may inhibit: flagged in this run, and firing already or
 * firing with it. A pending one inhibits nothing, as in Alertmanager.
 */
function firingNow({ findings, previous, policy, inhibitRules }: DiffInput): Finding[] {
  if (!inhibitRules?.length) return [];
  return findings.filter((f) => {
    const prev = previous.get(f.key);
    return prev?.phase === "firing" || (prev?.flaggedRuns ?? 0) + 1 >= policy.fireAfterRuns;
  });
}

/**
 * When a finding's problem began: when its source says (`startsAt`: a KEB operation's failure, an
 * expiry, an edge Application's last message), else when a run first saw it. A start later than
 * the run, or one that is not a time, is not believed.
 */
function onsetOf(finding: Finding, firstSeenAt: string, at: string): string {
  const since = finding.startsAt;
  return since && !Number.isNaN(Date.parse(since)) && since <= at ? since : firstSeenAt;
}
