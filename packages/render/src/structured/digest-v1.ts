import {
  type DigestContext,
  fillTemplate,
  oneLine,
  type PlannedGroup,
  type PlannedMember,
  placeText,
  reasonOf,
  type Transition,
  type TransitionRef,
} from "@fleet-auditor/audit";
import { regexes } from "zod";
import { type GroupMix, groupMix } from "../title/group-mix.ts";
import { incidentEnded } from "../title/plan-title.ts";
import { channelAlert, type RowPlace } from "./digest-v1-alert.ts";
import { DIGEST_V1 } from "./digest-v1-name.ts";
import type { DigestV1, DigestV1Transition } from "./digest-v1-schema.ts";

/** What the schema takes as a time: zod's ISO date-time with an offset (`iso.datetime`). */
export const DIGEST_TIME: RegExp = regexes.datetime({ offset: true });

/**
 * A time as the schema takes it: as it is when it is one, else re-spelled from what `Date.parse`
 * reads (KEB's spelling is checked by form, not by calendar), else undefined. A digest this
 * builds must pass its own schema, or the Slack function would refuse it.
 */
function digestTime(value: string): string | undefined {
  if (DIGEST_TIME.test(value)) return value;
  const t = Date.parse(value);
  if (Number.isNaN(t)) return undefined;
  // A year past 9999 (or before 0) has no four-digit ISO spelling.
  const iso = new Date(t).toISOString();
  return DIGEST_TIME.test(iso) ? iso : undefined;
}

/**
 * The structured digest naming `named` (the first rows of `order`, each from `structuredTransition`)
 * and counting the rest. `subject` and `severity` are the e-mail's.
 */
export function structuredDigest(
  ctx: DigestContext,
  transitions: readonly Transition[],
  groups: readonly PlannedGroup[],
  order: readonly TransitionRef[],
  named: readonly DigestV1Transition[],
  head: { subject: string; severity: DigestV1["severity"] },
): DigestV1 {
  const counts = { firing: 0, changed: 0, reminder: 0, resolved: 0 };
  for (const g of groups) counts[g.kind] += g.members.length;
  const reportUrl = fillTemplate(ctx.links?.report, { runId: ctx.runId });
  return {
    schema: DIGEST_V1,
    audit: ctx.audit,
    ...(ctx.landscape ? { landscape: ctx.landscape } : {}),
    runId: ctx.runId,
    at: digestTime(ctx.at) ?? ctx.at,
    severity: head.severity,
    subject: head.subject,
    scan: {
      complete: ctx.complete,
      incompleteReason: ctx.incompleteReason,
      listed: ctx.listed,
      flagged: ctx.flagged,
    },
    counts,
    groups: groups.map((g) => ({
      key: g.key,
      kind: g.kind,
      severity: g.severity,
      state: g.state,
      reason: g.reason,
      region: placeText(g),
      since: digestTime(g.since) ?? ctx.at,
      count: g.members.length,
      plans: g.tally.map(([plan, count]) => ({ plan, count })),
      examples: g.members.slice(0, 3).map((r) => (transitions[r] as Transition).key),
      labels: { ...g.labels },
      ...g.digestV1,
      ...(g.from ? { from: g.from.map(([was, count]) => ({ was, count })) } : {}),
      ...(ctx.forChannels ? { words: { ...g.words } } : {}),
      ...mixOf(ctx, transitions, g),
    })),
    transitions: [...named],
    omitted: order.length - Math.min(named.length, order.length),
    report: {
      stored: ctx.report.stored,
      command: ctx.report.command,
      ...(reportUrl ? { url: reportUrl } : {}),
    },
    ...(ctx.store ? { store: ctx.store } : {}),
    ...(ctx.repeats ? { repeats: ctx.repeats } : {}),
    ...(ctx.incident
      ? {
          incident: {
            key: ctx.incident.key,
            status: ctx.incident.status,
            startsAt: digestTime(ctx.incident.startsAt) ?? ctx.at,
            ...(ctx.incident.values ? { values: { ...ctx.incident.values } } : {}),
            ...(ctx.incident.firing !== undefined ? { firing: ctx.incident.firing } : {}),
            ...lasted(ctx, ctx.incident),
            ...(ctx.incident.thread ? { thread: ctx.incident.thread } : {}),
            ...(ctx.incident.flapping ? { flapping: ctx.incident.flapping } : {}),
          },
        }
      : {}),
    ...(ctx.leftOut
      ? {
          leftOut: {
            count: ctx.leftOut.count,
            first: ctx.leftOut.first
              .slice(0, 3)
              .map((l) => ({ key: oneLine(l.key, 101), reason: oneLine(l.reason, 200) })),
          },
        }
      : {}),
  };
}

/**
 * A member of the plan as the structured digest names it; in a message for channels, with its
 * `alert` as far as `place` (where it stands among its group's rows) shows it.
 */
export function structuredTransition(
  ctx: DigestContext,
  m: PlannedMember,
  place: RowPlace,
): DigestV1Transition {
  const t = m.transition;
  const { expiredAt, operation, edge, ...fields } = m.digestV1.row;
  const { previousOperation } = m.digestV1;
  const { runtime, runbook } = m.links;
  const expired = expiredAt === undefined ? undefined : digestTime(expiredAt);
  const firstSeen = t.firstSeenAt === undefined ? undefined : digestTime(t.firstSeenAt);
  return {
    kind: t.kind,
    ...fields,
    state: t.state,
    previousState: t.previousState,
    severity: t.severity,
    since: digestTime(t.since) ?? ctx.at,
    reason: reasonOf(t.finding),
    ...(t.ending !== undefined ? { ending: t.ending } : {}),
    ...(expired ? { expiredAt: expired } : {}),
    ...(operation !== undefined ? { operation: withTimes(operation, "updatedAt") } : {}),
    ...(previousOperation !== undefined
      ? { previousOperation: withTimes(previousOperation, "updatedAt") }
      : {}),
    ...(edge !== undefined ? { edge: withTimes(edge, "since") } : {}),
    links: { ...(runtime ? { runtime } : {}), ...(runbook ? { runbook } : {}) },
    labels: { ...t.finding.labels },
    ...(firstSeen ? { firstSeenAt: firstSeen } : {}),
    ...(t.incident
      ? {
          incident: {
            key: t.incident.key,
            startsAt: digestTime(t.incident.startsAt) ?? ctx.at,
            ...(t.incident.ended ? { ended: true as const } : {}),
          },
        }
      : {}),
    ...(ctx.forChannels ? alertOf(channelAlert(m, fields, place)) : {}),
  } as DigestV1Transition;
}

/** A row's `alert`, left out when a channel takes all of it from the row and its group's first. */
function alertOf(alert: NonNullable<DigestV1Transition["alert"]>): Pick<DigestV1Transition, "alert"> {
  return Object.keys(alert).length > 0 ? { alert } : {};
}

/** What a group holds that its `groupBy` does not say (`group-mix.ts`), when there is any. */
function mixOf(ctx: DigestContext, transitions: readonly Transition[], g: PlannedGroup): { mix?: GroupMix } {
  const mix = groupMix(ctx.groupBy, ctx.presenter.placeLabel, transitions, g.members);
  return mix ? { mix } : {};
}

/** An ended incident's length, from its start to the run (whole seconds). */
function lasted(
  ctx: DigestContext,
  incident: NonNullable<DigestContext["incident"]>,
): { lastedSeconds?: number } {
  if (!incidentEnded(incident)) return {};
  const ms = Date.parse(ctx.at) - Date.parse(incident.startsAt);
  return Number.isFinite(ms) ? { lastedSeconds: Math.max(0, Math.floor(ms / 1000)) } : {};
}

/** A detail whose time field is one the schema takes, or has none (the flat form's, as it was). */
function withTimes(detail: unknown, field: string): Record<string, unknown> {
  const { [field]: time, ...rest } = detail as Record<string, unknown>;
  const kept = typeof time === "string" ? digestTime(time) : undefined;
  return kept ? { ...rest, [field]: kept } : rest;
}
