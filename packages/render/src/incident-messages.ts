import {
  type DigestContext,
  type DigestMessage,
  heldBack,
  SEVERITY_RANK,
  type Severity,
  type Transition,
  type TransitionRef,
} from "@fleet-auditor/audit";
import { renderDigests } from "./digest.ts";

// Chat follows incidents: besides the run's one e-mail digest, each incident with news in the
// run gets a message of its own, threaded by its `incidentKey` (Chatbot's `threadId`), so one
// incident can be followed in one thread from its first firing to its end. In a storm the engine
// rolls the new incidents past its route's cap into one roll-up (`TransitionIncident.thread`):
// they share one message, threaded by the roll-up's key, in this run and in every later one, so
// a partial recovery of a hundred incidents posts one message, not a hundred threads. An incident
// that opened flapping (its values kept opening and ending) keeps its own key but is posted in
// the thread of the episode before it, so that a flapping problem is one thread, not one a day.

/** New incidents that get a message of their own in one run, unless a route says otherwise. */
export const MAX_NEW_INCIDENT_MESSAGES = 10;

interface Thread {
  key: string;
  refs: TransitionRef[];
  severity: Severity;
  /** A roll-up of several incidents. */
  rollUp: boolean;
  /** Over: the incident ended, or every incident of the roll-up did. */
  ended: boolean;
  startsAt: string;
  /** The incident's values (none for a roll-up: it holds several). */
  values?: Readonly<Record<string, string>>;
  /** Members still firing, by incident: what its title and end say. */
  firing: Map<string, number>;
  /** A roll-up's members still firing, across all its incidents (those without news too). */
  rollUpFiring?: number;
  /** It opened flapping: the thread it is posted in (an earlier episode's), and how often. */
  flapping?: { episodes: number; postedIn: string };
}

/**
 * The run's incident messages (attribute `format=incident`) for the transitions' `incident`s
 * (one route's): one per incident with news not held back (silenced or inhibited), most severe first, then one per roll-up.
 * Each is a whole digest of its transitions (e-mail text, Chatbot, the structured digest with its
 * `incident`: the incident's, or the roll-up's key), fitted to SNS like any digest; each
 * message's `transitions` name the run's refs.
 */
export function renderIncidentMessages(
  ctx: DigestContext,
  transitions: readonly Transition[],
  /** The first Chatbot `id` sequence number: past those of the run's other messages. */
  sequenceFrom = 1,
): DigestMessage[] {
  const out: DigestMessage[] = [];
  for (const thread of threadsOf(transitions)) {
    const own: DigestContext = {
      ...ctx,
      forChannels: true,
      incident: {
        key: thread.key,
        status: thread.ended ? "resolved" : "firing",
        startsAt: thread.startsAt,
        ...(thread.values ? { values: thread.values } : {}),
        firing: thread.rollUpFiring ?? [...thread.firing.values()].reduce((n, f) => n + f, 0),
        ...(thread.flapping ? { thread: thread.flapping.postedIn, flapping: thread.flapping.episodes } : {}),
      },
    };
    out.push(...subset(own, transitions, thread.refs, sequenceFrom + out.length));
  }
  return out;
}

function threadsOf(transitions: readonly Transition[]): Thread[] {
  const byKey = new Map<string, Thread>();
  for (const [ref, t] of transitions.entries()) {
    const incident = t.incident;
    if (heldBack(t) || !incident) continue;
    const key = incident.thread?.key ?? incident.key;
    let thread = byKey.get(key);
    if (!thread) {
      thread = {
        key,
        refs: [],
        severity: "info",
        rollUp: incident.thread !== undefined,
        ended: incident.thread ? incident.thread.ended === true : incident.ended === true,
        startsAt: incident.startsAt,
        ...(incident.thread === undefined && incident.values ? { values: incident.values } : {}),
        firing: new Map(),
        ...(incident.thread ? { rollUpFiring: incident.thread.firing } : {}),
        ...(incident.thread === undefined && incident.flapping ? { flapping: incident.flapping } : {}),
      };
      byKey.set(key, thread);
    }
    thread.refs.push(ref);
    thread.firing.set(incident.key, incident.firing);
    if (incident.startsAt < thread.startsAt) thread.startsAt = incident.startsAt;
    if (t.kind !== "resolved" && SEVERITY_RANK[t.severity] > SEVERITY_RANK[thread.severity])
      thread.severity = t.severity;
  }
  return [...byKey.values()].sort(
    (a, b) =>
      Number(a.rollUp) - Number(b.rollUp) ||
      SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
      b.refs.length - a.refs.length ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
}

/** The digest of some of the run's transitions, its refs the run's own. */
export function subset(
  ctx: DigestContext,
  transitions: readonly Transition[],
  refs: readonly TransitionRef[],
  sequence: number,
): DigestMessage[] {
  const own = (r: TransitionRef): TransitionRef => refs[r] as TransitionRef;
  return renderDigests(
    ctx,
    refs.map((r) => transitions[r] as Transition),
    sequence,
  ).map((m) => ({
    ...m,
    transitions: m.transitions.map(own),
    omitted: m.omitted.map(own),
    ...(m.short
      ? {
          short: { ...m.short, transitions: m.short.transitions.map(own), omitted: m.short.omitted.map(own) },
        }
      : {}),
  }));
}

/** What a message's title and end say of its incident: its values and the members still firing. */
export function incidentFacts(
  about: NonNullable<Transition["incident"]>,
): Pick<NonNullable<DigestContext["incident"]>, "values" | "firing"> {
  return { ...(about.values ? { values: about.values } : {}), firing: about.firing };
}
