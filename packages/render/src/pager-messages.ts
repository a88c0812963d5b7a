import {
  type DigestContext,
  type DigestMessage,
  heldBack,
  type Transition,
  type TransitionRef,
} from "@fleet-auditor/audit";
import { subset } from "./incident-messages.ts";

// The pager hears an incident's lifecycle, not its news: one message when it becomes critical
// (opens critical, or a member turns critical) and one when it stops being critical (its last
// critical member resolves or turns less), never capped, whatever chat's roll-up does. Which run
// that is, the diff says (`TransitionIncident.pager`), from what was told before.

/**
 * The run's messages for the critical topic: one per incident whose being critical changed, with
 * its transitions of the run, its structured `incident.status` `firing` (trigger) or `resolved`
 * (resolve) under its `incidentKey`, so that a pager's alert opens and closes under one key.
 */
export function renderPagerMessages(
  ctx: DigestContext,
  transitions: readonly Transition[],
  /** The first Chatbot `id` sequence number: past those of the run's other messages. */
  sequenceFrom = 1,
): DigestMessage[] {
  const byKey = new Map<string, TransitionRef[]>();
  for (const [ref, t] of transitions.entries()) {
    if (!t.incident?.pager) continue;
    byKey.set(t.incident.key, [...(byKey.get(t.incident.key) ?? []), ref]);
  }
  const out: DigestMessage[] = [];
  for (const [key, refs] of [...byKey].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const first = transitions[refs[0] as TransitionRef] as Transition;
    const about = first.incident as NonNullable<Transition["incident"]>;
    const own: DigestContext = {
      ...ctx,
      forChannels: true,
      incident: { key, status: about.pager === "trigger" ? "firing" : "resolved", startsAt: about.startsAt },
    };
    // A resolve names every end of the incident, held-back ones too: the alert it closes was
    // opened before the silence or inhibition, and a refused resolve must hold back every end it
    // carries, or the next run would no longer see a critical incident ending. A trigger whose
    // transitions are all held back is sent as they are (the diff already counts it told to the
    // pager).
    const release = about.pager === "resolve" || refs.every((r) => heldBack(transitions[r]));
    const shown = release ? transitions.map((t, r) => (refs.includes(r) ? released(t) : t)) : transitions;
    for (const m of subset(own, shown, refs, sequenceFrom + out.length)) out.push(toCritical(m));
  }
  return out;
}

/** The transition as a message shows it, neither silenced nor inhibited. */
function released(t: Transition): Transition {
  const { silencedBy: _s, inhibitedBy: _i, ...rest } = t;
  return rest;
}

/** An incident message that goes to the critical topic only. */
function toCritical(m: DigestMessage): DigestMessage {
  const attributes = { ...m.attributes, format: "incident" as const };
  const topics = ["critical"] as const;
  return { ...m, attributes, topics, ...(m.short ? { short: { ...m.short, attributes, topics } } : {}) };
}
