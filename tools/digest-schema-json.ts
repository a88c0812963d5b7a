import { DigestV1Schema, HealthV1Schema, TestV1Schema } from "@fleet-auditor/render";
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
