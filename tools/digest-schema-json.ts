import { DigestV1Schema, HealthV1Schema, TestV1Schema } from "@fleet-auditor/render";
import {
  AuditRunInputSchema,
  NotifyTestInputSchema,
  RunSummarySchema,
  ShowRunInputSchema,
  StatusQueryInputSchema,
} from "@fleet-auditor/runner";
import { z } from "zod";

const BASE = "https://github.com/fleet-auditor/fleet-auditor/schemas";

/** The JSON Schema (draft 2020-12) of `fleet-auditor.digest/v1`, generated from its zod schema. */
export function digestV1JsonSchema(): Record<string, unknown> {
  return {
    $id: `${BASE}/fleet-auditor.digest.v1.schema.json`,
    title: "fleet-auditor.digest/v1",
    description:
      "One audit run's digest, or one incident's news, for programs: the default key of each such SNS publish of fleet-auditor.",
    ...z.toJSONSchema(DigestV1Schema, { target: "draft-2020-12" }),
  };
}

/** The JSON Schema (draft 2020-12) of `fleet-auditor.health/v1`, generated from its zod schema. */
export function healthV1JsonSchema(): Record<string, unknown> {
  return {
    $id: `${BASE}/fleet-auditor.health.v1.schema.json`,
    title: "fleet-auditor.health/v1",
    description:
      "A degraded or recovered notice about an audit itself, for programs: the default key of each such SNS publish of fleet-auditor.",
    ...z.toJSONSchema(HealthV1Schema, { target: "draft-2020-12" }),
  };
}

/** The JSON Schema (draft 2020-12) of `fleet-auditor.test/v1`, generated from its zod schema. */
export function testV1JsonSchema(): Record<string, unknown> {
  return {
    $id: `${BASE}/fleet-auditor.test.v1.schema.json`,
    title: "fleet-auditor.test/v1",
    description:
      "A test message of one topic (fleet-auditor notify test), for programs: the default key of each such SNS publish of fleet-auditor. Nothing is wrong when it arrives.",
    ...z.toJSONSchema(TestV1Schema, { target: "draft-2020-12" }),
  };
}

/**
 * The JSON Schema of what the audit functions take: a run (the schedule's event, a console test
 * event, `fleet-auditor run`), `{ "show": RUN_ID }` or `{ "notifyTest": … }`. `events/*.json`
 * name it in their `$schema` key, which the functions accept and ignore.
 */
export function auditEventV1JsonSchema(): Record<string, unknown> {
  return {
    $id: `${BASE}/fleet-auditor.audit-event.v1.schema.json`,
    title: "fleet-auditor.audit-event/v1",
    description:
      "The event an audit function (Audit, ApplicationsAudit) takes: an audit run, a run's report ({show}), or a test of the routes ({notifyTest}).",
    ...z.toJSONSchema(z.union([AuditRunInputSchema, ShowRunInputSchema, NotifyTestInputSchema]), {
      target: "draft-2020-12",
      io: "input",
    }),
  };
}

/** The JSON Schema of what the ApplicationStatusQuery function takes. */
export function statusQueryV1JsonSchema(): Record<string, unknown> {
  return {
    $id: `${BASE}/fleet-auditor.status-query.v1.schema.json`,
    title: "fleet-auditor.status-query/v1",
    description:
      "The event the ApplicationStatusQuery function takes: Applications by node, status and time, or the quarantined messages.",
    ...z.toJSONSchema(StatusQueryInputSchema, { target: "draft-2020-12", io: "input" }),
  };
}

/** The JSON Schema of a run summary: what an audit run returns, and `fleet-auditor run -o json` prints. */
export function runSummaryV1JsonSchema(): Record<string, unknown> {
  return {
    $id: `${BASE}/fleet-auditor.run-summary.v1.schema.json`,
    title: "fleet-auditor.run-summary/v1",
    description:
      "One audit run's summary: what an audit function returns for a run, and what fleet-auditor run -o json prints.",
    ...z.toJSONSchema(RunSummarySchema, { target: "draft-2020-12" }),
  };
}
