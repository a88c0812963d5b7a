import type { DigestContext } from "./digest.ts";
import type { DigestV1, DigestV1Transition } from "./digest-v1-schema.ts";
import type { TransitionGroup } from "./groups.ts";
import { fillTemplate, findingValues } from "./links.ts";
import { reportTransition } from "./report.ts";
import type { Transition, TransitionRef } from "./snapshot.ts";

/** The schema name and version every structured digest carries in `schema`. */
export const DIGEST_V1 = "fleet-auditor.digest/v1";

/**
 * The structured digest naming the first `named` transitions of `order` and counting the rest.
 * `subject` and `severity` are the e-mail's.
 */
export function structuredDigest(
  ctx: DigestContext,
  transitions: readonly Transition[],
  groups: readonly TransitionGroup[],
  order: readonly TransitionRef[],
  named: number,
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
    at: ctx.at,
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
      region: g.region,
      since: g.since,
      count: g.members.length,
      plans: g.plans.map(([plan, count]) => ({ plan, count })),
      examples: g.members.slice(0, 3).map((r) => (transitions[r] as Transition).instanceID),
      ...(g.edge ? { edge: true as const } : {}),
    })),
    transitions: order.slice(0, named).map((r) => structuredTransition(ctx, transitions[r] as Transition)),
    omitted: order.length - Math.min(named, order.length),
    report: {
      stored: ctx.report.stored,
      command: ctx.report.command,
      ...(reportUrl ? { url: reportUrl } : {}),
    },
    ...(ctx.repeats ? { repeats: ctx.repeats } : {}),
  };
}

function structuredTransition(ctx: DigestContext, t: Transition): DigestV1Transition {
  const { silencedBy: _s, ...row } = reportTransition(t);
  const values = findingValues(t.finding);
  const runtime = fillTemplate(ctx.links?.runtime, values);
  const runbook = fillTemplate(ctx.links?.runbook, values);
  return {
    ...row,
    links: { ...(runtime ? { runtime } : {}), ...(runbook ? { runbook } : {}) },
  };
}
