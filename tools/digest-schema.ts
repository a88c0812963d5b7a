// Writes the JSON Schemas of the structured messages (`fleet-auditor.digest/v1`, the structured
// variant of every digest and incident message; `fleet-auditor.health/v1`, of every health
// notice; `fleet-auditor.test/v1`, of every `notify test` message), of the functions' input events
// (`audit-event/v1`, `status-query/v1`, which `events/*.json` name) and of the run summary
// (`run-summary/v1`) from their zod schemas, for consumers in other languages and editors, and that
// of `stages.json`, for editors: `npm run schema`. Tests fail when a committed file and its zod
// schema disagree.
import { writeFileSync } from "node:fs";
import {
  auditEventV1JsonSchema,
  digestV1JsonSchema,
  healthV1JsonSchema,
  runSummaryV1JsonSchema,
  statusQueryV1JsonSchema,
  testV1JsonSchema,
} from "./digest-schema-json.ts";
import { stagesJsonSchema } from "./stages-schema-json.ts";

for (const [name, schema] of [
  ["fleet-auditor.digest.v1.schema.json", digestV1JsonSchema()],
  ["fleet-auditor.health.v1.schema.json", healthV1JsonSchema()],
  ["fleet-auditor.test.v1.schema.json", testV1JsonSchema()],
  ["fleet-auditor.audit-event.v1.schema.json", auditEventV1JsonSchema()],
  ["fleet-auditor.status-query.v1.schema.json", statusQueryV1JsonSchema()],
  ["fleet-auditor.run-summary.v1.schema.json", runSummaryV1JsonSchema()],
  ["fleet-auditor.stages.schema.json", stagesJsonSchema()],
] as const) {
  const path = new URL(`../schemas/${name}`, import.meta.url);
  writeFileSync(path, `${JSON.stringify(schema, null, 2)}\n`);
  process.stdout.write(`wrote ${path.pathname}\n`);
}
