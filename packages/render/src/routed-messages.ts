import {
  DEFAULT_ROUTE,
  type DigestContext,
  type DigestMessage,
  type LegacyPage,
  type Route,
  type Transition,
  type TransitionRef,
} from "@fleet-auditor/audit";
import { renderDigests } from "./digest.ts";
import { renderIncidentMessages, subset } from "./incident-messages.ts";
import { renderPagerMessages } from "./pager-messages.ts";

/** Which receivers a run's messages go to, and the routes that feed them. */
export interface RunMessageOptions {
  routes: readonly Route[];
  /** An incidents topic is there (chat: Chatbot, the Slack function). */
  chat: boolean;
  /** A critical topic is there (the pager). */
  pager: boolean;
  /** Pages of before routes to resolve (`DiffResult.legacyPages`). */
  legacyPages?: readonly LegacyPage[];
}

/**
 * Every message of a run, by receiver: the run's digest on the alerts topic (what routes to it
 * say, or, when none does, every transition but one that is news for some routes alone: a join,
 * a reminder due on a route's own interval), one
 * message per incident with news (or roll-up) of each route to the incidents topic, and the
 * pages of each route to the critical topic. Each route's messages read its own incidents.
 */
export function renderRunMessages(
  ctx: DigestContext,
  transitions: readonly Transition[],
  options: RunMessageOptions,
): DigestMessage[] {
  const toDigest = options.routes.filter((r) => r.receiver === "alerts").map((r) => r.name);
  const digestRefs: TransitionRef[] = [];
  for (const [ref, t] of transitions.entries()) {
    const told = toDigest.length
      ? toDigest.some((name) => t.incidents?.[name])
      : t.joined !== true && t.routesOnly !== true;
    if (told) digestRefs.push(ref);
  }
  const out =
    digestRefs.length === transitions.length
      ? renderDigests(ctx, transitions)
      : subset(ctx, transitions, digestRefs, 1);
  let legacy = options.legacyPages ?? [];
  for (const route of options.routes) {
    const sequence = transitions.length + out.length + 1;
    if (route.receiver === "incidents" && options.chat)
      out.push(...renderIncidentMessages(ctx, onRoute(transitions, route.name), sequence));
    if (route.receiver === "critical" && options.pager) {
      out.push(...renderPagerMessages(ctx, onRoute(transitions, route.name), sequence, legacy));
      legacy = [];
    }
  }
  return out;
}

/** The transitions as one route tells them: `incident` is the route's (absent: not news there). */
function onRoute(transitions: readonly Transition[], route: string): Transition[] {
  return transitions.map((t) => {
    // A transition of before routes (a stored report) has the default route's alone.
    const incident = t.incidents ? t.incidents[route] : route === DEFAULT_ROUTE ? t.incident : undefined;
    if (incident === t.incident) return t;
    const { incident: _, ...rest } = t;
    return incident ? { ...rest, incident } : rest;
  });
}
