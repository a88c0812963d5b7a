import { array, boolean, literal, number, object, enum as oneOf, type output, string } from "zod";
import type { DigestContext } from "./digest.ts";
import type { TransitionGroup } from "./groups.ts";
import { fillTemplate, findingValues } from "./links.ts";
import { reportTransition } from "./report.ts";
import { TRANSITION_KINDS, type Transition, type TransitionRef } from "./snapshot.ts";

/** The schema name and version every structured digest carries in `schema`. */
export const DIGEST_V1 = "fleet-auditor.digest/v1";

const Severity = oneOf(["critical", "warning", "info"]);
const Kind = oneOf(TRANSITION_KINDS);

const Operation = object({
  kind: string(),
  operationID: string(),
  state: string(),
  description: string(),
  errorReason: string().optional(),
  errorComponent: string().optional(),
  errorStep: string().optional(),
  updatedAt: string().optional(),
  notCompletedSteps: array(string()).optional(),
});

const Edge = object({
  what: oneOf(["stuck", "refused", "quarantined"]),
  node: string(),
  key: string(),
  verb: string(),
  resource: string(),
  status: string().optional().describe("stuck: the Application's status"),
  since: string().optional(),
  reason: string().describe("refused: the Kubernetes reason and code; quarantined: the code"),
  code: number().int().optional(),
  count: number().int().optional(),
  requests: array(string()).optional().describe("refused: 'verb resource' pairs, most frequent first"),
});

/** One transition with its finding, as programs read it (the run report's row, plus links). */
export const DigestV1TransitionSchema = object({
  kind: Kind,
  severity: Severity,
  instanceID: string(),
  runtimeID: string(),
  shootName: string(),
  globalAccountID: string(),
  subAccountID: string(),
  plan: string(),
  region: string(),
  provider: string(),
  state: string().describe("the displayed state now (KEB's status.state)"),
  previousState: string().nullable().describe("the state the snapshot had; null when firing"),
  reason: string().describe('the error reason or failing step; "" when KEB gives none'),
  since: string().describe("when this incident began (ISO 8601)"),
  expiredAt: string().optional(),
  ending: string().optional().describe("resolved: the state now, or 'no longer listed'"),
  operation: Operation.optional(),
  previousOperation: Operation.optional().describe("changed: the failing operation before"),
  edge: Edge.optional().describe(
    "the applications audit: a stuck Application, a refusing node or quarantined messages (instanceID is then the finding's key, region the node, plan the verb)",
  ),
  links: object({
    runtime: string().optional(),
    runbook: string().optional(),
  }),
});

/** A group of transitions sharing kind, state, reason and region: one incident. */
export const DigestV1GroupSchema = object({
  key: string().describe("kind|state|reason|region, stable across runs for one incident"),
  kind: Kind,
  severity: Severity,
  state: string(),
  reason: string(),
  region: string(),
  since: string(),
  count: number().int().positive(),
  plans: array(object({ plan: string(), count: number().int().positive() })),
  examples: array(string()).describe("the group's first instance IDs (at most 3)"),
});

/**
 * `fleet-auditor.digest/v1`: one run's digest for programs, in the `lambda` and `sqs` keys of
 * each publish. `transitions` lists what fits the publish's size budget; `omitted` counts the
 * rest, which the run report (`report`) holds.
 */
export const DigestV1Schema = object({
  schema: literal(DIGEST_V1),
  audit: string(),
  landscape: string().optional(),
  runId: string(),
  at: string().describe("when the run judged the fleet (ISO 8601)"),
  severity: Severity.describe("the most severe unresolved transition's; info when all resolved"),
  subject: string(),
  scan: object({
    complete: boolean(),
    incompleteReason: string().nullable(),
    listed: number().int().nonnegative(),
    flagged: number().int().nonnegative(),
  }),
  counts: object({
    firing: number().int().nonnegative(),
    changed: number().int().nonnegative(),
    reminder: number().int().nonnegative(),
    resolved: number().int().nonnegative(),
  }),
  groups: array(DigestV1GroupSchema),
  transitions: array(DigestV1TransitionSchema),
  omitted: number().int().nonnegative(),
  report: object({
    stored: boolean().describe("false: what this digest only counts is sent again next run"),
    command: string(),
    url: string().optional(),
  }),
  repeats: string()
    .optional()
    .describe("a run interrupted after publishing: some of this may repeat its message"),
});

export type DigestV1 = output<typeof DigestV1Schema>;
export type DigestV1Transition = output<typeof DigestV1TransitionSchema>;

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
