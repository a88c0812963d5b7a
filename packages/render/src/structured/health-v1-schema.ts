import { array, iso, literal, number, object, enum as oneOf, type output, string } from "zod";
import { HEALTH_V1 } from "./health-v1-name.ts";

// The structured health notice's zod schema, apart from the code that builds notices (as the
// digest's): the Slack and pager functions parse notices, the audit function only builds them.

const Time = iso.datetime({ offset: true, error: "expected an ISO 8601 date-time" });

/**
 * `fleet-auditor.health/v1`: the `default` (Lambda, SQS) of a `degraded` or `recovered` notice.
 * `key` names the episode, from its first bad run to the run that recovered: a pager opens an
 * alert under it on `degraded` and closes that alert on `recovered`. A stage's first day adds two
 * informational notices, never sent to the pager: `baseline` (the first scheduled run recorded
 * what is flagged; `flagged` counts it by state, `report` is the command that lists it) and
 * `not-configured` (a secret the audit needs has no value yet; told once).
 */
export const HealthV1Schema = object({
  schema: literal(HEALTH_V1),
  landscape: string().optional(),
  audit: string(),
  runId: string(),
  at: Time.describe("when the run that sends the notice ran"),
  status: oneOf(["degraded", "recovered", "baseline", "not-configured"]),
  key: string().describe("the episode's key: stable from its first bad run until it recovers"),
  since: Time.describe("when the first of the episode's incomplete or failed runs ran"),
  badRuns: number().int().nonnegative().describe("incomplete or failed runs in a row, up to this notice"),
  reason: string().describe(
    "why the latest bad run could not see the whole fleet; for not-configured, which secret has no value; for baseline, what was recorded (one line)",
  ),
  runbook: string().describe(
    "what to do: an https: URL (RUNBOOK_URL_TEMPLATE) or its page in the docs (docs/operate.md#a-degraded-notice)",
  ),
  text: string().describe("the notice in one line, as e-mail's first line"),
  flagged: array(object({ state: string(), count: number().int().nonnegative() }))
    .optional()
    .describe("baseline: the findings recorded, counted by state, most first"),
  report: string().optional().describe("baseline: the command that lists every finding of the run"),
});

export type HealthV1 = output<typeof HealthV1Schema>;
