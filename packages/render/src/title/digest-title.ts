import type { DigestV1 } from "../structured/digest-v1-schema.ts";
import { incidentEnded } from "./plan-title.ts";
import type { TitleSource } from "./title-parts.ts";

/**
 * A title's facts from a structured digest, for the channels that render out of process (the
 * Slack and pager functions): the same facts the renderers take from the plan, so that Slack's
 * header and PagerDuty's summary say what the e-mail's subject says, with the room each has. A
 * digest from before a fact was added (an incident's `firing`, a group's `mix`) is told with what
 * it carries: its `status` says whether the incident ended.
 */
export function digestTitleSource(d: DigestV1): TitleSource {
  const total = d.counts.firing + d.counts.changed + d.counts.reminder + d.counts.resolved;
  const row = total === 1 && d.transitions.length === 1 ? d.transitions[0] : undefined;
  const subject = row?.alert?.subject;
  const incident = d.incident;
  return {
    audit: d.audit,
    ...(d.landscape ? { landscape: d.landscape } : {}),
    severity: d.severity,
    complete: d.scan.complete,
    at: d.at,
    counts: d.counts,
    groups: d.groups.map((g) => ({
      kind: g.kind,
      state: g.state,
      reason: g.reason,
      region: g.region,
      count: g.count,
      ...(g.labels ? { labels: g.labels } : {}),
      ...(g.words ? { words: g.words } : {}),
      ...(g.mix ? { mix: g.mix } : {}),
    })),
    ...(d.leftOut ? { leftOut: d.leftOut.count } : {}),
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
    ...(row && subject ? { one: { subject, kind: row.kind } } : {}),
  };
}
