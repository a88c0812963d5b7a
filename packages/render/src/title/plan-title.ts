import type { DigestContext, PlannedGroup, Severity, Transition } from "@fleet-auditor/audit";
import { groupMix } from "./group-mix.ts";
import type { TitleSource } from "./title-parts.ts";

/**
 * A title's facts from the run's plan: the message's groups (with what each holds that its
 * `groupBy` does not say), its counts, its incident (values, members still firing, whether it
 * ended), and its one transition's name when it tells one alone (not with `countsOnly`).
 */
export function planTitleSource(
  ctx: DigestContext,
  groups: readonly PlannedGroup[],
  transitions: readonly Transition[],
  severity: Severity,
  options: { countsOnly?: boolean } = {},
): TitleSource {
  const counts = { firing: 0, changed: 0, reminder: 0, resolved: 0 };
  for (const g of groups) counts[g.kind] += g.members.length;
  const single = groups.length === 1 && groups[0]?.members.length === 1 ? groups[0] : undefined;
  const member = options.countsOnly ? undefined : single?.told[0];
  const incident = ctx.incident;
  return {
    audit: ctx.audit,
    ...(ctx.landscape ? { landscape: ctx.landscape } : {}),
    severity,
    complete: ctx.complete,
    at: ctx.at,
    counts,
    groups: groups.map((g) => {
      const mix = groupMix(ctx.groupBy, ctx.presenter.placeLabel, transitions, g.members);
      return {
        kind: g.kind,
        state: g.state,
        reason: g.reason,
        labels: g.labels,
        count: g.members.length,
        words: g.words,
        ...(mix ? { mix } : {}),
      };
    }),
    ...(ctx.leftOut ? { leftOut: ctx.leftOut.count } : {}),
    ...(incident
      ? {
          incident: {
            ...(incident.values ? { values: incident.values } : {}),
            ...(incident.firing !== undefined ? { firing: incident.firing } : {}),
            startsAt: incident.startsAt,
            ended: incidentEnded(incident),
          },
        }
      : {}),
    ...(member ? { one: { subject: member.row.subject, kind: member.transition.kind } } : {}),
  };
}

/**
 * Whether an incident message tells the incident's end: none of its members fires after the run.
 * A pager's `resolved` (the incident stopped being critical) is an end only then.
 */
export function incidentEnded(incident: {
  status: "firing" | "resolved";
  firing?: number | undefined;
}): boolean {
  return incident.firing === undefined ? incident.status === "resolved" : incident.firing === 0;
}
