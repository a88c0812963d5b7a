import type { Delivery } from "./delivery.ts";
import type { DiffResult } from "./diff.ts";
import { type Finding, SEVERITY_RANK, type Severity } from "./finding.ts";
import type {
  EndedEpisode,
  IncidentEvent,
  IncidentEventKind,
  IncidentExample,
  IncidentRecord,
} from "./incident-record.ts";
import { INCIDENT_EVENT_KINDS } from "./incident-record.ts";
import type { MessageTopic } from "./message.ts";
import { DEFAULT_ROUTE } from "./route.ts";
import { heldBack, type Transition, type TransitionIncident } from "./snapshot.ts";
import { oneLine } from "./text.ts";

// What a run adds to its incidents' history: for each incident it told something of, one event
// (counts, the first members it is about) and the record folded with it. Only what the run's
// commit keeps is recorded: a transition that was told, or held back and carried by no refused
// message (`committable`'s rule), so that the history says what the snapshot says was delivered,
// and a transition sent again next run is recorded then.

/** Examples an event keeps, and a record keeps of its first members. */
const EVENT_EXAMPLES = 3;
const RECORD_EXAMPLES = 5;
/** Silence IDs and inhibiting keys an event names. */
const NAMED_CAUSES = 3;
/** Labels `common` keeps, and the length of an example's summary. */
const COMMON_LABELS = 16;
const SUMMARY_CHARS = 160;
/**
 * A record or an event is kept under this many bytes of JSON (items hold 400 KB, and every KB is
 * a write unit on each run that tells of it): the bounds above keep a usual one near 1.5 KB; keys
 * near DynamoDB's 1 KB limit can reach it, and then its examples go, then its common labels.
 */
export const INCIDENT_ITEM_BYTES = 8_000;

/** One incident's record after a run and the event the run added to its timeline. */
export interface IncidentWrite {
  record: IncidentRecord;
  event: IncidentEvent;
}

/** What `incidentWrites` needs to know of the run besides its diff and delivery. */
export interface HistoryRun {
  audit: string;
  runId: string;
  /** The run's time (ISO): every event's `at`, and an incident's `openedAt` when it opened now. */
  at: string;
  /** Each route's receiver, by route name; a route not named is taken for the chat's. */
  receivers: ReadonlyMap<string, MessageTopic>;
}

/**
 * The keys of the incidents a run recorded news of: their records are read before it commits (and,
 * with every transition counted, before it renders: what tells that a reminder is acknowledged).
 */
export function incidentsWithNews(diff: DiffResult, delivery: Pick<Delivery, "told" | "refused">): string[] {
  const keys = new Set<string>();
  for (const [i, t] of diff.transitions.entries())
    if (recorded(diff, delivery, i) && !t.acknowledgedBy)
      for (const ti of Object.values(incidentsOf(t))) keys.add(ti.key);
  return [...keys];
}

/**
 * The history a run adds: per incident it told something of, the event and the record after it
 * (`before`: the records kept so far, by key; an incident without one starts its record here,
 * which for one opened before history was kept counts only what is told from now on).
 */
export function incidentWrites(
  run: HistoryRun,
  diff: DiffResult,
  delivery: Pick<Delivery, "told" | "refused" | "quiet">,
  before: ReadonlyMap<string, IncidentRecord>,
): IncidentWrite[] {
  const news = new Map<string, News>();
  for (const [i, t] of diff.transitions.entries()) {
    // An acknowledged reminder told nobody: nothing happened to its incidents.
    if (!recorded(diff, delivery, i) || t.acknowledgedBy) continue;
    for (const [route, ti] of Object.entries(incidentsOf(t))) {
      let n = news.get(ti.key);
      if (!n) {
        n = newsOf(route, ti);
        news.set(ti.key, n);
      }
      n.add(t, ti, delivery.quiet === true);
    }
  }
  return [...news.values()].map((n) => n.write(run, before.get(n.key)));
}

/** A transition counts once the commit keeps its writes (`committable`'s rule). */
function recorded(diff: DiffResult, delivery: Pick<Delivery, "told" | "refused">, i: number): boolean {
  const t = diff.transitions[i];
  return delivery.told.has(i) || (heldBack(t) && !delivery.refused.has(i));
}

/** A transition's incidents by route: those it is news for, or the default route's of before routes. */
function incidentsOf(t: Transition): Readonly<Record<string, TransitionIncident>> {
  return t.incidents ?? (t.incident ? { [DEFAULT_ROUTE]: t.incident } : {});
}

interface News {
  key: string;
  add(t: Transition, ti: TransitionIncident, quiet: boolean): void;
  write(run: HistoryRun, before: IncidentRecord | undefined): IncidentWrite;
}

function newsOf(route: string, first: TransitionIncident): News {
  const what = new Set<IncidentEventKind>();
  const counts = { joined: 0, changed: 0, left: 0, reminded: 0, silenced: 0, inhibited: 0 };
  const silences = new Set<string>();
  const inhibitedBy = new Set<string>();
  const examples: IncidentExample[] = [];
  const joiners: Finding[] = [];
  let incident = first;
  let page: "trigger" | "resolve" | undefined;
  let severity: Severity | undefined;
  return {
    key: first.key,
    add(t, ti, quiet) {
      incident = ti;
      if (!quiet && ti.pager) page = ti.pager;
      if (t.silencedBy) {
        counts.silenced++;
        if (silences.size < NAMED_CAUSES) silences.add(t.silencedBy);
      } else if (t.inhibitedBy) {
        counts.inhibited++;
        if (inhibitedBy.size < NAMED_CAUSES) inhibitedBy.add(t.inhibitedBy);
      }
      if (t.kind === "firing" || t.joined) {
        counts.joined++;
        joiners.push(t.finding);
        if (!severity || SEVERITY_RANK[t.severity] > SEVERITY_RANK[severity]) severity = t.severity;
      } else if (t.kind === "changed") counts.changed++;
      else if (t.kind === "resolved") counts.left++;
      else counts.reminded++;
      if (t.kind !== "reminder" && examples.length < EVENT_EXAMPLES) examples.push(exampleOf(t.finding));
    },
    write(run, before) {
      const opened = !before && incident.openedAt === run.at;
      if (opened) what.add("opened");
      if (incident.ended) what.add("ended");
      if (counts.joined && !opened) what.add("joined");
      if (counts.changed) what.add("changed");
      if (counts.left) what.add("left");
      if (counts.reminded) what.add("reminded");
      if (page) what.add("paged");
      if (counts.silenced) what.add("silenced");
      if (counts.inhibited) what.add("inhibited");
      const event: IncidentEvent = {
        key: incident.key,
        at: run.at,
        runId: run.runId,
        what: INCIDENT_EVENT_KINDS.filter((k) => what.has(k)),
        ...counts,
        ...(silences.size ? { silences: [...silences] } : {}),
        ...(inhibitedBy.size ? { inhibitedBy: [...inhibitedBy] } : {}),
        firing: incident.firing,
        ...(page ? { page } : {}),
        ...(examples.length ? { examples } : {}),
      };
      const record = folded(run, route, incident, before, event, joiners, severity);
      return fitted({ record, event });
    },
  };
}

/** The record after `event`: `before`'s, or one started from the incident as the run knows it. */
function folded(
  run: HistoryRun,
  route: string,
  incident: TransitionIncident,
  before: IncidentRecord | undefined,
  event: IncidentEvent,
  joiners: readonly Finding[],
  severity: Severity | undefined,
): IncidentRecord {
  const start: IncidentRecord = before ?? {
    key: incident.key,
    audit: run.audit,
    route,
    receiver: run.receivers.get(route) ?? "incidents",
    values: incident.values ?? {},
    common: {},
    severity: severity ?? "info",
    openedAt: incident.openedAt,
    startsAt: incident.startsAt,
    lastAt: run.at,
    firing: 0,
    peak: 0,
    members: 0,
    changes: 0,
    reminders: 0,
    pages: 0,
    silenced: 0,
    inhibited: 0,
    examples: [],
    events: 0,
  };
  const common = joiners.reduce(
    (labels, f, i) => (i === 0 && start.members === 0 ? commonOf(f.labels) : sharedWith(labels, f.labels)),
    start.common,
  );
  const examples = [...start.examples];
  for (const f of joiners) {
    if (examples.length >= RECORD_EXAMPLES) break;
    if (!examples.some((e) => e.key === f.key)) examples.push(exampleOf(f));
  }
  const ended = incident.ended === true;
  return {
    ...start,
    common,
    severity: severity && SEVERITY_RANK[severity] > SEVERITY_RANK[start.severity] ? severity : start.severity,
    lastAt: run.at,
    firing: incident.firing,
    peak: Math.max(start.peak, incident.firing),
    members: start.members + event.joined,
    changes: start.changes + event.changed,
    reminders: start.reminders + event.reminded,
    pages: start.pages + (event.page ? 1 : 0),
    silenced: start.silenced + event.silenced,
    inhibited: start.inhibited + event.inhibited,
    examples,
    events: start.events + 1,
    ...(incident.thread ? { thread: incident.thread.key } : {}),
    ...(incident.flapping ? { flapping: incident.flapping } : {}),
    ...(ended ? { endedAt: run.at, durationMs: Date.parse(run.at) - Date.parse(start.openedAt) } : {}),
  };
}

/** The ended episodes a run keeps, at most this many bytes of JSON (an item holds 400 KB). */
const EPISODES_BYTES = 300_000;

/**
 * The audit's ended episodes after a run's writes (`EndedEpisode`): those it had, with the
 * incidents that ended now, less those that left the window (a flapping incident needs its episodes
 * to have opened and ended in it), the latest kept when they outgrow `EPISODES_BYTES`. Undefined
 * when the list is unchanged, so that a run that ends nothing writes nothing for it.
 */
export function endedEpisodes(
  before: readonly EndedEpisode[],
  writes: readonly IncidentWrite[],
  now: string,
  windowMs: number,
): EndedEpisode[] | undefined {
  const from = new Date(Date.parse(now) - windowMs).toISOString();
  const ended = writes.flatMap(({ record: r }) =>
    r.endedAt
      ? [
          {
            route: r.route,
            values: r.values,
            key: r.key,
            thread: r.flapping?.postedIn ?? r.thread ?? r.key,
            openedAt: r.openedAt,
            endedAt: r.endedAt,
          },
        ]
      : [],
  );
  const kept = before.filter((e) => e.openedAt >= from && e.endedAt >= from);
  if (ended.length === 0 && kept.length === before.length) return undefined;
  const all = [...kept, ...ended].sort((a, b) =>
    a.endedAt < b.endedAt ? 1 : a.endedAt > b.endedAt ? -1 : 0,
  );
  let bytes = 2;
  const out: EndedEpisode[] = [];
  for (const e of all) {
    bytes += Buffer.byteLength(JSON.stringify(e)) + 1;
    if (bytes > EPISODES_BYTES) break;
    out.push(e);
  }
  return out;
}

/**
 * The transitions with their reminders acknowledged (`records`: the incidents' records, by key):
 * a reminder whose incidents are all acknowledged is held back (`acknowledgedBy`); one with only
 * some acknowledged is news for the others alone. Every other transition is told as it was: an
 * acknowledged incident that changes is told again.
 */
export function withAcknowledgements(
  transitions: readonly Transition[],
  records: ReadonlyMap<string, IncidentRecord>,
): Transition[] {
  return transitions.map((t) => {
    if (t.kind !== "reminder" || heldBack(t)) return t;
    const on = Object.entries(incidentsOf(t));
    const acked = on.filter(([, ti]) => records.get(ti.key)?.acknowledged);
    if (acked.length === 0) return t;
    if (acked.length === on.length) {
      const by = records.get(acked[0]?.[1].key ?? "")?.acknowledged?.by ?? "";
      return { ...t, acknowledgedBy: by };
    }
    const incidents = Object.fromEntries(on.filter(([, ti]) => !records.get(ti.key)?.acknowledged));
    const { incident: _own, ...rest } = t;
    const own = incidents[DEFAULT_ROUTE];
    return { ...rest, incidents, ...(own ? { incident: own } : {}) };
  });
}

/**
 * The transitions with a page PagerDuty resolved while its incident still failed opened again by
 * that incident's next change (`records`: the incidents' records, by key): a change, or a member
 * joining, of an incident with `pagerResolvedAt` sends its route's pager a trigger (a new alert
 * under the same key). Nothing else pages it again.
 */
export function withRepages(
  transitions: readonly Transition[],
  records: ReadonlyMap<string, IncidentRecord>,
): Transition[] {
  return transitions.map((t) => {
    const changes = t.kind === "changed" || (t.kind === "firing" && !heldBack(t));
    if (!changes || !t.incidents) return t;
    let repaged = false;
    const incidents = Object.fromEntries(
      Object.entries(t.incidents).map(([route, ti]) => {
        const record = records.get(ti.key);
        if (!record?.pagerResolvedAt || record.receiver !== "critical" || ti.pager || ti.ended)
          return [route, ti];
        repaged = true;
        return [route, { ...ti, pager: "trigger" as const }];
      }),
    );
    if (!repaged) return t;
    const own = incidents[DEFAULT_ROUTE];
    return { ...t, incidents, ...(own ? { incident: own } : {}) };
  });
}

function exampleOf(f: Finding): IncidentExample {
  return { key: f.key, summary: oneLine(f.summary, SUMMARY_CHARS) };
}

/** The first member's labels, at most `COMMON_LABELS` of them. */
function commonOf(labels: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(labels).slice(0, COMMON_LABELS));
}

/** The labels `common` keeps that `labels` has with the same value. */
function sharedWith(
  common: Readonly<Record<string, string>>,
  labels: Readonly<Record<string, string>>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(common).filter(([name, value]) => Object.hasOwn(labels, name) && labels[name] === value),
  );
}

/** The write, under `INCIDENT_ITEM_BYTES` each: examples go first, then the common labels. */
function fitted(write: IncidentWrite): IncidentWrite {
  let { record, event } = write;
  const over = (x: unknown): boolean => Buffer.byteLength(JSON.stringify(x)) > INCIDENT_ITEM_BYTES;
  if (over(event)) {
    const { examples: _e, ...rest } = event;
    event = rest;
  }
  if (over(record)) record = { ...record, examples: [] };
  if (over(record)) record = { ...record, common: {} };
  return { record, event };
}
