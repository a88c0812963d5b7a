import type { Finding, Labels } from "./finding.ts";
import { type LabelMatcher, matchesAll } from "./matcher.ts";
import type { MessageTopic } from "./message.ts";

// Alertmanager's routing tree, flattened to a list as its users mostly write it: each route picks
// findings by label matchers for one receiver (a topic), groups them its own way into incidents of
// its own, and either stops the walk or lets it `continue` to the next route. Unlike
// Alertmanager, a finding keeps the incidents it joined until it resolves, whatever its labels
// become (so a page stays open while its incident lasts); a route it comes to match later (an
// escalation, a route added) it joins then.

/** One route: which findings, told where, grouped how. */
export interface Route {
  /** Unique per stage: lowercase letters, digits and `_`. In its incidents' keys and labels. */
  name: string;
  /** The topic its incidents are told on. */
  receiver: MessageTopic;
  /** Every one must hold (on the finding's labels plus `audit` and `severity`); none: all. */
  matchers: readonly LabelMatcher[];
  /** The labels whose values make one of its incidents (`audit` and `severity` among them). */
  groupBy: readonly string[];
  /** Whether a finding it takes goes on to the next routes too. */
  continue: boolean;
  /** New incidents per run told in messages of their own; the rest share one roll-up (a storm). */
  maxNew: number;
  /** How often a finding still firing is told again on this route, ms; default the policy's. */
  repeatIntervalMs?: number;
}

/**
 * The route whose incidents keep the keys they had before routes existed (no route in their
 * hash; the snapshot's `incident`), so that an upgrade re-keys no chat thread.
 */
export const DEFAULT_ROUTE = "default";

// What a route's text must be, stated once for the two schemas that read routes (stages.json's
// before a deploy, `ROUTES` where the audit function starts), so that they refuse alike.

/** A route's name: what its incidents' keys and `incident_<name>` labels are made of. */
export const ROUTE_NAME = /^[a-z][a-z0-9_]{0,39}$/;
export const ROUTE_NAME_RULE = "expected lowercase letters, digits and _, starting with a letter";

/** A route's `repeatInterval` as written: "30m", "4h", "1d" (Alertmanager's `repeat_interval`). */
export const ROUTE_INTERVAL = /^[1-9]\d{0,3}(m|h|d)$/;
export const ROUTE_INTERVAL_RULE = 'expected a duration such as "30m", "4h" or "1d"';

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A `repeatInterval` that matches `ROUTE_INTERVAL`, in ms. */
export function routeIntervalMs(text: string): number {
  return Number(text.slice(0, -1)) * UNIT_MS[text.slice(-1) as keyof typeof UNIT_MS];
}

/** Where a route's name was used by a route before it (names key incidents: each once). */
export function repeatedRouteNames(
  routes: ReadonlyArray<{ name: string }>,
): Array<{ at: number; message: string }> {
  const seen = new Set<string>();
  const out: Array<{ at: number; message: string }> = [];
  for (const [at, r] of routes.entries()) {
    if (seen.has(r.name)) out.push({ at, message: `route name ${r.name} is used twice` });
    seen.add(r.name);
  }
  return out;
}

/** New incidents told one by one per run and route before the rest are rolled up. */
export const MAX_NEW_INCIDENTS = 10;

/** New pages per run before the rest are rolled up into one: the pager's storm cap. */
export const MAX_NEW_PAGES = 3;

/**
 * Today's routes: chat follows the audit's own incidents (`default`, every finding, keys as
 * before), and the pager gets one incident per audit episode (`pager`: critical findings,
 * grouped by `audit` alone): one event, one page.
 */
export function defaultRoutes(groupBy: readonly string[], maxNew = MAX_NEW_INCIDENTS): Route[] {
  return [
    { name: DEFAULT_ROUTE, receiver: "incidents", matchers: [], groupBy, continue: true, maxNew },
    {
      name: "pager",
      receiver: "critical",
      matchers: [{ name: "severity", op: "=", value: "critical" }],
      groupBy: ["audit"],
      continue: true,
      maxNew: MAX_NEW_PAGES,
    },
  ];
}

/** The labels routes match and group on: the finding's own, with its `audit` and `severity`. */
export function routingLabels(audit: string, f: Pick<Finding, "labels" | "severity">): Labels {
  return { ...f.labels, audit, severity: f.severity };
}

/** The routes a finding takes, in order: each one that matches, until one that does not `continue`. */
export function routesOf(
  routes: readonly Route[],
  audit: string,
  f: Pick<Finding, "labels" | "severity">,
): Route[] {
  const labels = routingLabels(audit, f);
  const taken: Route[] = [];
  for (const route of routes) {
    if (!matchesAll(route.matchers, labels)) continue;
    taken.push(route);
    if (!route.continue) break;
  }
  return taken;
}

/** The label that names a finding's incident on `route`: `incident_<route>`, its key the value. */
export const incidentLabel = (route: string): string => `incident_${route}`;

/** A finding's incident labels: `incident_<route>` = the incident's key, for each route it is on. */
export function incidentLabels(refs: ReadonlyMap<string, { key: string }>): Labels {
  return Object.fromEntries([...refs].map(([route, ref]) => [incidentLabel(route), ref.key]));
}
