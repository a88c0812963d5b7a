// Writes the JSON Schemas of the structured messages (`fleet-auditor.digest/v1`, the structured
// variant of every digest and incident message; `fleet-auditor.health/v1`, of every health
// notice; `fleet-auditor.test/v1`, of every `notify test` message) from their zod schemas, for
// consumers in other languages: `npm run schema`. Tests fail when a committed file and its zod
// schema disagree.
import { writeFileSync } from "node:fs";
import { digestV1JsonSchema, healthV1JsonSchema, testV1JsonSchema } from "./digest-schema-json.ts";

for (const [name, schema] of [
  ["fleet-auditor.digest.v1.schema.json", digestV1JsonSchema()],
  ["fleet-auditor.health.v1.schema.json", healthV1JsonSchema()],
  ["fleet-auditor.test.v1.schema.json", testV1JsonSchema()],
] as const) {
  const path = new URL(`../schemas/${name}`, import.meta.url);
  writeFileSync(path, `${JSON.stringify(schema, null, 2)}\n`);
  process.stdout.write(`wrote ${path.pathname}\n`);
}
