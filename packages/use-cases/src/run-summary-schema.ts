// The run summary's contract as a zod schema, for its published JSON Schema
// (schemas/fleet-auditor.run-summary.v1.schema.json, `npm run schema`): what an audit function
// returns and `fleet-auditor run -o json` prints. The type check holds it equal to `RunSummary`,
// so the two cannot drift.

import { type RunSummary, TRANSITION_KINDS } from "@fleet-auditor/audit";
import {
  array,
  boolean,
  literal,
  nullable,
  number,
  enum as oneOf,
  optional,
  type output,
  strictObject,
  string,
  union,
} from "zod";

const count = number().int().nonnegative();

/** The run summary (`RunSummary` of `@fleet-auditor/audit`) as a schema. */
export const RunSummarySchema = strictObject({
  audit: string(),
  runId: string(),
  scheduledTime: nullable(string()),
  dryRun: boolean(),
  status: oneOf(["completed", "duplicate", "skipped", "not-configured"]),
  complete: boolean(),
  incompleteReason: nullable(string()),
  incompleteCode: optional(string()),
  queries: array(strictObject({ query: string(), pages: count, totalCount: count, listed: count })),
  flagged: count,
  transitions: array(
    strictObject({
      kind: oneOf(TRANSITION_KINDS),
      instanceID: string(),
      state: string(),
      previousState: nullable(string()),
      severity: oneOf(["critical", "warning", "info"]),
      silencedBy: optional(string()),
      inhibitedBy: optional(string()),
    }),
  ),
  baseline: optional(literal(true)),
  rescans: optional(count),
  repeats: optional(string()),
  transitionsOmitted: optional(count),
  unstorable: optional(array(strictObject({ instanceID: string(), reason: string() }))),
  unstorableCount: optional(count),
  report: optional(strictObject({ stored: boolean() })),
  health: optional(
    strictObject({
      badRuns: count,
      badSince: nullable(string()),
      notice: optional(union([literal("degraded"), literal("recovered")])),
    }),
  ),
  notified: strictObject({
    messages: count,
    transitions: count,
    failed: count,
    suppressed: count,
    inhibited: optional(count),
    acknowledged: optional(count),
    error: optional(string()),
    shortened: optional(count),
  }),
  writes: strictObject({ snapshot: count, deleted: count }),
  startedAt: string(),
  durationMs: number().nonnegative(),
});

// Both ways: a field added to one and not the other fails the type check here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same: Same<output<typeof RunSummarySchema>, RunSummary> = true;
void same;
