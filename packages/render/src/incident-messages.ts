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
// incident can be followed in one thread from its first firing to its end. News of an incident
// already open (changes, reminders, resolutions) always goes to its thread; only new incidents
// are capped, the rest told together in one roll-up that points to the run report.

/** New incidents that get a message of their own in one run (`MAX_NEW_INCIDENT_MESSAGES`). */
export const MAX_NEW_INCIDENT_MESSAGES = 10;

interface Incident {
  key: string;
  refs: TransitionRef[];
  severity: Severity;
  opened: boolean;
}

/**
 * The run's incident messages (attribute `format=incident`): one per incident with news not
 * held back (silenced or inhibited), most severe first; new incidents past `maxNew` share one roll-up message. Each is a
 * whole digest of its transitions (e-mail text, Chatbot, the structured digest with its
 * `incident`), fitted to SNS like any digest; each message's `transitions` name the run's refs.
 */
export function renderIncidentMessages(
  ctx: DigestContext,
  transitions: readonly Transition[],
  maxNew: number = MAX_NEW_INCIDENT_MESSAGES,
  /** The first Chatbot `id` sequence number: past those of the run's other messages. */
  sequenceFrom = 1,
): DigestMessage[] {
  const incidents = incidentsOf(ctx, transitions);
  const fresh = incidents.filter((i) => i.opened);
  const told = [...incidents.filter((i) => !i.opened), ...fresh.slice(0, maxNew)].sort(bySeverity);
  const rolled = fresh.slice(maxNew);
  const out: DigestMessage[] = [];
  for (const incident of told) {
    const first = transitions[incident.refs[0] as TransitionRef] as Transition;
    const about = first.incident as NonNullable<Transition["incident"]>;
    const own: DigestContext = {
      ...ctx,
      forChannels: true,
      incident: { key: incident.key, status: about.ended ? "resolved" : "firing", startsAt: about.startsAt },
    };
    out.push(...subset(own, transitions, incident.refs, sequenceFrom + out.length));
  }
  if (rolled.length) {
    const refs = rolled.flatMap((i) => i.refs).sort((a, b) => a - b);
    const rollUp = subset({ ...ctx, forChannels: true }, transitions, refs, sequenceFrom + out.length).map(
      (m) => asIncidentFormat(m),
    );
    out.push(...rollUp);
  }
  return out;
}

function incidentsOf(ctx: DigestContext, transitions: readonly Transition[]): Incident[] {
  const byKey = new Map<string, Incident>();
  for (const [ref, t] of transitions.entries()) {
    if (heldBack(t) || !t.incident) continue;
    let incident = byKey.get(t.incident.key);
    if (!incident) {
      incident = { key: t.incident.key, refs: [], severity: "info", opened: t.incident.openedAt === ctx.at };
      byKey.set(t.incident.key, incident);
    }
    incident.refs.push(ref);
    if (t.kind !== "resolved" && SEVERITY_RANK[t.severity] > SEVERITY_RANK[incident.severity])
      incident.severity = t.severity;
  }
  return [...byKey.values()].sort(bySeverity);
}

/** Most severe first, then largest, then by key: the same order every run. */
function bySeverity(a: Incident, b: Incident): number {
  return (
    SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
    b.refs.length - a.refs.length ||
    (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
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

/** The roll-up is an incident message too: it goes where incident messages go. */
function asIncidentFormat(m: DigestMessage): DigestMessage {
  const attributes = { ...m.attributes, format: "incident" as const };
  return { ...m, attributes, ...(m.short ? { short: { ...m.short, attributes } } : {}) };
}
