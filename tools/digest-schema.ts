// Writes the JSON Schema of `fleet-auditor.digest/v1` (the structured variant of every publish)
// from its zod schema, for consumers in other languages: `npm run schema`. A test fails when the
// committed file and the zod schema disagree.
import { writeFileSync } from "node:fs";
import { digestV1JsonSchema } from "./digest-schema-json.ts";

const path = new URL("../schemas/fleet-auditor.digest.v1.schema.json", import.meta.url);
writeFileSync(path, `${JSON.stringify(digestV1JsonSchema(), null, 2)}\n`);
process.stdout.write(`wrote ${path.pathname}\n`);
