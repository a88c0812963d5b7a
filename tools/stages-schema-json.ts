import { StagesFileSchema } from "../infra/stage-schema.ts";
import { publishedSchema } from "./digest-schema-json.ts";

/**
 * The JSON Schema (draft 2020-12) of `stages.json`, generated from its zod schema, for editors
 * (the file's `$schema` points at the committed copy). What it cannot say (a URL template that
 * can give a link) the deploy checks with the zod schema itself.
 */
export function stagesJsonSchema(): Record<string, unknown> {
  return publishedSchema(
    "fleet-auditor.stages.schema.json",
    "fleet-auditor stages",
    "Per-stage deployment settings of fleet-auditor (stages.json): a default, and each stage's entry, whose fields replace the default's.",
    StagesFileSchema,
    "input",
  );
}
