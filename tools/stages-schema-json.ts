import { z } from "zod";
import { StagesFileSchema } from "../infra/stage-schema.ts";

const BASE = "https://github.com/fleet-auditor/fleet-auditor/schemas";

/**
 * The JSON Schema (draft 2020-12) of `stages.json`, generated from its zod schema, for editors
 * (the file's `$schema` points at the committed copy). What it cannot say (a URL template that
 * can give a link) the deploy checks with the zod schema itself.
 */
export function stagesJsonSchema(): Record<string, unknown> {
  return {
    $id: `${BASE}/fleet-auditor.stages.schema.json`,
    title: "fleet-auditor stages",
    description:
      "Per-stage deployment settings of fleet-auditor (stages.json): a default, and each stage's entry, whose fields replace the default's.",
    ...z.toJSONSchema(StagesFileSchema, { target: "draft-2020-12", io: "input" }),
  };
}
