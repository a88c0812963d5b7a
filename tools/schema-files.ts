import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import {
  auditEventV1JsonSchema,
  digestV1JsonSchema,
  healthV1JsonSchema,
  runSummaryV1JsonSchema,
  statusQueryV1JsonSchema,
  summaryV1JsonSchema,
  testV1JsonSchema,
} from "./digest-schema-json.ts";
import { stagesJsonSchema } from "./stages-schema-json.ts";

const ROOT = new URL("../", import.meta.url).pathname;

/** Each published JSON Schema: its file name under `schemas/`, and the schema from its zod schema. */
export function schemaFiles(): Array<readonly [string, object]> {
  return [
    ["fleet-auditor.digest.v1.schema.json", digestV1JsonSchema()],
    ["fleet-auditor.health.v1.schema.json", healthV1JsonSchema()],
    ["fleet-auditor.test.v1.schema.json", testV1JsonSchema()],
    ["fleet-auditor.summary.v1.schema.json", summaryV1JsonSchema()],
    ["fleet-auditor.audit-event.v1.schema.json", auditEventV1JsonSchema()],
    ["fleet-auditor.status-query.v1.schema.json", statusQueryV1JsonSchema()],
    ["fleet-auditor.run-summary.v1.schema.json", runSummaryV1JsonSchema()],
    ["fleet-auditor.stages.schema.json", stagesJsonSchema()],
  ];
}

/**
 * A schema file's text as it is committed: JSON formatted by Biome with the repository's
 * settings (`biome.json`: short arrays and objects on one line), so that `npm run schema` writes
 * what `npm run lint` accepts, with no `biome format --write` after it. Biome reads the text on
 * its standard input and formats it as the file it names.
 */
export function schemaFileText(name: string, schema: object): string {
  const biome = createRequire(import.meta.url).resolve("@biomejs/biome/bin/biome");
  return execFileSync(process.execPath, [biome, "format", `--stdin-file-path=schemas/${name}`], {
    cwd: ROOT,
    input: `${JSON.stringify(schema, null, 2)}\n`,
    encoding: "utf8",
  });
}
