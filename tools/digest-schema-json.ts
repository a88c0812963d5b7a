import { DigestV1Schema, HealthV1Schema, SummaryV1Schema, TestV1Schema } from "@fleet-auditor/render";
import {
  AuditRunInputSchema,
  IncidentSummaryInputSchema,
  NotifyTestInputSchema,
  RunSummarySchema,
  ShowRunInputSchema,
  StatusQueryInputSchema,
} from "@fleet-auditor/use-cases";
import { z } from "zod";

const BASE = "https://github.com/fleet-auditor/fleet-auditor/schemas";

/**
 * A published JSON Schema (draft 2020-12) generated from its zod schema, under `schemas/<file>`:
 * of what is read (`io: "input"`, for the events and files people write) or what is written.
 */
export function publishedSchema(
  file: string,
  title: string,
  description: string,
  schema: z.ZodType,
  io: "input" | "output" = "output",
): Record<string, unknown> {
  return {
    $id: `${BASE}/${file}`,
    title,
    description,
    ...z.toJSONSchema(schema, { target: "draft-2020-12", io }),
  };
}

/** The JSON Schema (draft 2020-12) of `fleet-auditor.digest/v1`, generated from its zod schema. */
export function digestV1JsonSchema(): Record<string, unknown> {
  return publishedSchema(
    "fleet-auditor.digest.v1.schema.json",
    "fleet-auditor.digest/v1",
    "One audit run's digest, or one incident's news, for programs: the default key of each such SNS publish of fleet-auditor.",
    DigestV1Schema,
  );
}

/** The JSON Schema (draft 2020-12) of `fleet-auditor.health/v1`, generated from its zod schema. */
export function healthV1JsonSchema(): Record<string, unknown> {
  return publishedSchema(
    "fleet-auditor.health.v1.schema.json",
    "fleet-auditor.health/v1",
    "A degraded or recovered notice about an audit itself, for programs: the default key of each such SNS publish of fleet-auditor.",
    HealthV1Schema,
  );
}

/** The JSON Schema (draft 2020-12) of `fleet-auditor.test/v1`, generated from its zod schema. */
export function testV1JsonSchema(): Record<string, unknown> {
  return publishedSchema(
    "fleet-auditor.test.v1.schema.json",
    "fleet-auditor.test/v1",
    "A test message of one topic (fleet-auditor notify test), for programs: the default key of each such SNS publish of fleet-auditor. Nothing is wrong when it arrives.",
    TestV1Schema,
  );
}

/** The JSON Schema (draft 2020-12) of `fleet-auditor.summary/v1`, generated from its zod schema. */
export function summaryV1JsonSchema(): Record<string, unknown> {
  return publishedSchema(
    "fleet-auditor.summary.v1.schema.json",
    "fleet-auditor.summary/v1",
    "A window's incident summary (counts, time to resolve, breakdowns, flapping, noisiest), for programs: the default key of each such SNS publish of fleet-auditor.",
    SummaryV1Schema,
  );
}

/**
 * The JSON Schema of what the audit functions take: a run (the schedule's event, a console test
 * event, `fleet-auditor run`), `{ "show": RUN_ID }`, `{ "notifyTest": … }` or `{ "report": … }`.
 * `events/*.json` name it in their `$schema` key, which the functions accept and ignore.
 */
export function auditEventV1JsonSchema(): Record<string, unknown> {
  return publishedSchema(
    "fleet-auditor.audit-event.v1.schema.json",
    "fleet-auditor.audit-event/v1",
    "The event an audit function (Audit, ApplicationsAudit) takes: an audit run, a run's report ({show}), a test of the routes ({notifyTest}), or a window's incident summary ({report}).",
    z.union([AuditRunInputSchema, ShowRunInputSchema, NotifyTestInputSchema, IncidentSummaryInputSchema]),
    "input",
  );
}

/** The JSON Schema of what the ApplicationStatusQuery function takes. */
export function statusQueryV1JsonSchema(): Record<string, unknown> {
  return publishedSchema(
    "fleet-auditor.status-query.v1.schema.json",
    "fleet-auditor.status-query/v1",
    "The event the ApplicationStatusQuery function takes: Applications by node, status and time, or the quarantined messages.",
    StatusQueryInputSchema,
    "input",
  );
}

/** The JSON Schema of a run summary: what an audit run returns, and `fleet-auditor run -o json` prints. */
export function runSummaryV1JsonSchema(): Record<string, unknown> {
  return publishedSchema(
    "fleet-auditor.run-summary.v1.schema.json",
    "fleet-auditor.run-summary/v1",
    "One audit run's summary: what an audit function returns for a run, and what fleet-auditor run -o json prints.",
    RunSummarySchema,
  );
}
