import { DigestV1Schema } from "@fleet-auditor/render";
import { z } from "zod";

/** The JSON Schema (draft 2020-12) of `fleet-auditor.digest/v1`, generated from its zod schema. */
export function digestV1JsonSchema(): Record<string, unknown> {
  return {
    $id: "https://github.com/fleet-auditor/fleet-auditor/schemas/fleet-auditor.digest.v1.schema.json",
    title: "fleet-auditor.digest/v1",
    description:
      "One audit run's digest for programs: the lambda and sqs keys of each SNS publish of fleet-auditor.",
    ...z.toJSONSchema(DigestV1Schema, { target: "draft-2020-12" }),
  };
}
