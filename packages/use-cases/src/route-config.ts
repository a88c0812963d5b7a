import {
  type AuditDefinition,
  DEFAULT_ROUTE,
  defaultRoutes,
  type LabelMatcher,
  MAX_NEW_INCIDENTS,
  MAX_NEW_PAGES,
  parseMatchers,
  ROUTE_INTERVAL,
  ROUTE_INTERVAL_RULE,
  ROUTE_NAME,
  ROUTE_NAME_RULE,
  type Route,
  repeatedRouteNames,
  routeIntervalMs,
} from "@fleet-auditor/audit";
import { array, boolean, number, object, enum as oneOf, optional, type output, string } from "zod";

// Routes as a stage sets them (stages.json's `routes`, the `ROUTES` variable, the CLI's
// `--routes FILE`): Alertmanager's route, flattened. Matchers are typed as silences take them.

// One element: a matcher, or a braced list of them (amtool's spellings).
const matcher = string().transform((text, ctx): LabelMatcher[] => {
  try {
    return parseMatchers(text);
  } catch (err) {
    ctx.addIssue({ code: "custom", message: (err as Error).message });
    return [];
  }
});

/** One route as configured: `groupBy` defaults to the audit's, `maxNew` to the receiver's cap. */
const RouteSettingSchema = object({
  name: string().regex(ROUTE_NAME, ROUTE_NAME_RULE),
  receiver: oneOf(["alerts", "incidents", "critical"]),
  matchers: array(matcher)
    .max(20)
    .default([])
    .transform((lists) => lists.flat()),
  groupBy: optional(array(string().regex(/^[a-z][a-z0-9_]{0,63}$/)).max(10)),
  continue: boolean().default(false),
  maxNew: optional(number().int().positive().max(100)),
  repeatInterval: optional(string().regex(ROUTE_INTERVAL, ROUTE_INTERVAL_RULE)),
}).strict();

/** The routes of a stage: names unique; the walk stops at the first route that does not `continue`. */
const RoutesSchema = array(RouteSettingSchema)
  .min(1)
  .max(20)
  .superRefine((routes, ctx) => {
    for (const { at, message } of repeatedRouteNames(routes))
      ctx.addIssue({ code: "custom", path: [at, "name"], message });
  });

/** A route as a stage sets it, for every audit. */
export type RouteSetting = output<typeof RouteSettingSchema>;

/**
 * The routes of one audit: the stage's, each `groupBy` the audit's unless set (a label the audit's
 * findings lack reads as empty, as in Alertmanager), or today's (`defaultRoutes`): chat by the
 * audit's incidents, and, with a pager, one page per audit episode.
 */
export function routesFor(
  settings: {
    routes?: readonly RouteSetting[];
    incidentMessages?: { maxNew: number };
    pagerMessages?: boolean;
  },
  audit: Pick<AuditDefinition, "groupBy">,
): Route[] {
  if (!settings.routes) {
    const [chat, pager] = defaultRoutes(audit.groupBy, settings.incidentMessages?.maxNew);
    return settings.pagerMessages ? [chat as Route, pager as Route] : [chat as Route];
  }
  return settings.routes.map((r) => ({
    name: r.name,
    receiver: r.receiver,
    matchers: r.matchers,
    groupBy: r.groupBy ?? audit.groupBy,
    continue: r.continue,
    ...(r.repeatInterval ? { repeatIntervalMs: routeIntervalMs(r.repeatInterval) } : {}),
    maxNew:
      r.maxNew ??
      (r.receiver === "critical"
        ? MAX_NEW_PAGES
        : r.name === DEFAULT_ROUTE
          ? (settings.incidentMessages?.maxNew ?? MAX_NEW_INCIDENTS)
          : MAX_NEW_INCIDENTS),
  }));
}

/** `RoutesSchema` of a JSON text: the `ROUTES` variable, the CLI's `--routes` file. */
export const RoutesJsonSchema = string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "expected a JSON array of routes" });
      return [];
    }
  })
  .pipe(RoutesSchema);
