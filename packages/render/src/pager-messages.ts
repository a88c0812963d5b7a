import {
  type DigestContext,
  type DigestMessage,
  heldBack,
  type LegacyPage,
  type Transition,
  type TransitionRef,
} from "@fleet-auditor/audit";
import { incidentFacts, subset } from "./incident-messages.ts";

// The pager hears an incident's lifecycle, not its news: one message when it opens (its first
// member told) and one when it ends, never capped by chat's roll-up, under its key; in a storm,
// the incidents past the route's cap share one page, the roll-up's. Which run that is, the diff
// says (`TransitionIncident.pager`), from what was told before.

/**
 * The run's messages for the critical topic, for the transitions' `incident`s (one route's): one
 * per page (an incident's key, or its roll-up's) that opened or ended, with its transitions of
 * the run, its structured `incident.status` `firing` (trigger) or `resolved` (resolve) under the
 * page's key, so that a pager's alert opens and closes under one key. `legacy`: pages a release
 * before routes opened, each resolved once under its old key.
 */
export function renderPagerMessages(
  ctx: DigestContext,
  transitions: readonly Transition[],
  /** The first Chatbot `id` sequence number: past those of the run's other messages. */
  sequenceFrom = 1,
  legacy: readonly LegacyPage[] = [],
): DigestMessage[] {
  const pages = new Map<string, Page>();
  for (const [ref, t] of transitions.entries()) {
    const incident = t.incident;
    if (!incident?.pager) continue;
    const key = incident.thread?.key ?? incident.key;
    const page: Page = pages.get(key) ?? {
      refs: [],
      status: incident.pager === "trigger" ? "firing" : "resolved",
      startsAt: incident.startsAt,
      // A roll-up's page: its members still firing across all its incidents.
      facts: incident.thread ? { firing: incident.thread.firing } : incidentFacts(incident),
      firingBy: new Map(),
    };
    page.firingBy.set(incident.key, incident.firing);
    page.refs.push(ref);
    if (incident.startsAt < page.startsAt) page.startsAt = incident.startsAt;
    pages.set(key, page);
  }
  const out: DigestMessage[] = [];
  for (const [key, page] of [...pages].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    out.push(...pageMessages(ctx, transitions, key, page, sequenceFrom + out.length));
  for (const old of legacy) {
    const page: Page = {
      refs: old.refs,
      status: "resolved",
      startsAt: old.startsAt,
      facts: { firing: 0 },
      firingBy: new Map(),
    };
    out.push(...pageMessages(ctx, transitions, old.key, page, sequenceFrom + out.length));
  }
  return out;
}

/** One page of the run: its transitions, whether it opens or ends, and what its title says of it. */
interface Page {
  refs: TransitionRef[];
  status: "firing" | "resolved";
  startsAt: string;
  facts: Partial<ReturnType<typeof incidentFacts>>;
  /** Members still firing, by incident: a roll-up's count is theirs together. */
  firingBy: Map<string, number>;
}

function pageMessages(
  ctx: DigestContext,
  transitions: readonly Transition[],
  key: string,
  page: Page,
  sequence: number,
): DigestMessage[] {
  const own: DigestContext = {
    ...ctx,
    forChannels: true,
    incident: {
      key,
      status: page.status,
      startsAt: page.startsAt,
      firing: [...page.firingBy.values()].reduce((n, f) => n + f, 0),
      ...page.facts,
    },
  };
  // A resolve names every end of the incident, held-back ones too: the alert it closes was
  // opened before the silence or inhibition, and a refused resolve must hold back every end it
  // carries, or the next run would no longer see a critical incident ending. A trigger whose
  // transitions are all held back is sent as they are (the diff already counts it told to the
  // pager).
  const { refs } = page;
  const release = page.status === "resolved" || refs.every((r) => heldBack(transitions[r]));
  const chosen = new Set(refs);
  const shown = release ? transitions.map((t, r) => (chosen.has(r) ? released(t) : t)) : transitions;
  return subset(own, shown, refs, sequence).map(toCritical);
}

/** A transition as a pager's resolve tells it: neither silenced, inhibited nor acknowledged. */
function released(t: Transition): Transition {
  const { silencedBy: _s, inhibitedBy: _i, acknowledgedBy: _a, ...rest } = t;
  return rest;
}

/** An incident message that goes to the critical topic only. */
function toCritical(m: DigestMessage): DigestMessage {
  const attributes = { ...m.attributes, format: "incident" as const };
  const topics = ["critical"] as const;
  return { ...m, attributes, topics, ...(m.short ? { short: { ...m.short, attributes, topics } } : {}) };
}
