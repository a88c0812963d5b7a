import { z } from "zod";
import type { DigestContext } from "./digest.ts";
import type { TransitionGroup } from "./groups.ts";
import { fillTemplate, findingValues } from "./links.ts";
import { reportTransition } from "./report.ts";
import { TRANSITION_KINDS, type Transition, type TransitionRef } from "./snapshot.ts";

/** The schema name and version every structured digest carries in `schema`. */
export const DIGEST_V1 = "fleet-auditor.digest/v1";

const Severity = z.enum(["critical", "warning", "info"]);
const Kind = z.enum(TRANSITION_KINDS);

const Operation = z.object({
  kind: z.string(),
  operationID: z.string(),
  state: z.string(),
  description: z.string(),
  errorReason: z.string().optional(),
  errorComponent: z.string().optional(),
  errorStep: z.string().optional(),
  updatedAt: z.string().optional(),
  notCompletedSteps: z.array(z.string()).optional(),
});

/** One transition with its finding, as programs read it (the run report's row, plus links). */
export const DigestV1TransitionSchema = z.object({
  kind: Kind,
  severity: Severity,
  instanceID: z.string(),
  runtimeID: z.string(),
  shootName: z.string(),
  globalAccountID: z.string(),
  subAccountID: z.string(),
  plan: z.string(),
  region: z.string(),
  provider: z.string(),
  state: z.string().describe("the displayed state now (KEB's status.state)"),
  previousState: z.string().nullable().describe("the state the snapshot had; null when firing"),
  reason: z.string().describe('the error reason or failing step; "" when KEB gives none'),
  since: z.string().describe("when this incident began (ISO 8601)"),
  expiredAt: z.string().optional(),
  ending: z.string().optional().describe("resolved: the state now, or 'no longer listed'"),
  operation: Operation.optional(),
  previousOperation: Operation.optional().describe("changed: the failing operation before"),
  links: z.object({
    runtime: z.string().optional(),
    runbook: z.string().optional(),
  }),
});

/** A group of transitions sharing kind, state, reason and region: one incident. */
export const DigestV1GroupSchema = z.object({
  key: z.string().describe("kind|state|reason|region, stable across runs for one incident"),
  kind: Kind,
  severity: Severity,
  state: z.string(),
  reason: z.string(),
  region: z.string(),
  since: z.string(),
  count: z.number().int().positive(),
  plans: z.array(z.object({ plan: z.string(), count: z.number().int().positive() })),
  examples: z.array(z.string()).describe("the group's first instance IDs (at most 3)"),
});

/**
 * `fleet-auditor.digest/v1`: one run's digest for programs, in the `lambda` and `sqs` keys of
 * each publish. `transitions` lists what fits the publish's size budget; `omitted` counts the
 * rest, which the run report (`report`) holds.
 */
export const DigestV1Schema = z.object({
  schema: z.literal(DIGEST_V1),
  audit: z.string(),
  landscape: z.string().optional(),
  runId: z.string(),
  at: z.string().describe("when the run judged the fleet (ISO 8601)"),
  severity: Severity.describe("the most severe unresolved transition's; info when all resolved"),
  subject: z.string(),
  scan: z.object({
    complete: z.boolean(),
    incompleteReason: z.string().nullable(),
    listed: z.number().int().nonnegative(),
    flagged: z.number().int().nonnegative(),
  }),
  counts: z.object({
    firing: z.number().int().nonnegative(),
    changed: z.number().int().nonnegative(),
    reminder: z.number().int().nonnegative(),
    resolved: z.number().int().nonnegative(),
  }),
  groups: z.array(DigestV1GroupSchema),
  transitions: z.array(DigestV1TransitionSchema),
  omitted: z.number().int().nonnegative(),
  report: z.object({
    stored: z.boolean().describe("false: what this digest only counts is sent again next run"),
    command: z.string(),
    url: z.string().optional(),
  }),
  repeats: z
    .string()
    .optional()
    .describe("a run interrupted after publishing: some of this may repeat its message"),
});

export type DigestV1 = z.infer<typeof DigestV1Schema>;
export type DigestV1Transition = z.infer<typeof DigestV1TransitionSchema>;

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
