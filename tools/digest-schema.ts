// Writes the JSON Schemas of the structured messages (`fleet-auditor.digest/v1`, the structured
// variant of every digest and incident message; `fleet-auditor.health/v1`, of every health
// notice; `fleet-auditor.test/v1`, of every `notify test` message), of the functions' input events
// (`audit-event/v1`, `status-query/v1`, which `events/*.json` name) and of the run summary
// (`run-summary/v1`) from their zod schemas, for consumers in other languages and editors, and that
// of `stages.json`, for editors: `npm run schema`, formatted as Biome formats them (nothing to
// run after it). Tests fail when a committed file and its zod schema disagree, or its text and
// what this writes.
import { writeFileSync } from "node:fs";
import { schemaFiles, schemaFileText } from "./schema-files.ts";

for (const [name, schema] of schemaFiles()) {
  const path = new URL(`../schemas/${name}`, import.meta.url);
  writeFileSync(path, schemaFileText(name, schema));
  process.stdout.write(`wrote ${path.pathname}\n`);
}
