import { readdirSync, readFileSync } from "node:fs";
import { parseRunInput, parseStatusQuery } from "@fleet-auditor/use-cases";
import { describe, expect, it } from "vitest";
import {
  auditEventV1JsonSchema,
  runSummaryV1JsonSchema,
  statusQueryV1JsonSchema,
} from "../../tools/digest-schema-json.ts";
import { schemaValidator } from "../helpers/json-schema.ts";

// The published schemas of the functions' input events and of the run summary: equal to their
// zod schemas, named by every console event in events/, and what an editor checks them with.

const root = new URL("../../", import.meta.url);
const read = (path: string): Record<string, unknown> => JSON.parse(readFileSync(new URL(path, root), "utf8"));
const published = {
  "fleet-auditor.audit-event.v1.schema.json": auditEventV1JsonSchema(),
  "fleet-auditor.status-query.v1.schema.json": statusQueryV1JsonSchema(),
  "fleet-auditor.run-summary.v1.schema.json": runSummaryV1JsonSchema(),
};

describe("input and summary schemas", () => {
  it.each(Object.entries(published))(
    "schemas/%s equals its zod schema (npm run schema writes it)",
    (file, schema) => {
      expect(read(`schemas/${file}`)).toEqual(JSON.parse(JSON.stringify(schema)));
    },
  );

  const events = readdirSync(new URL("events/", root)).filter((f) => f.endsWith(".json"));
  it.each(events)("events/%s names its schema, meets it, and the function takes it", (file) => {
    const event = read(`events/${file}`);
    const want = file.startsWith("apps-")
      ? "fleet-auditor.status-query.v1.schema.json"
      : "fleet-auditor.audit-event.v1.schema.json";
    expect(event.$schema).toBe(`../schemas/${want}`);
    const validate = schemaValidator(read(`schemas/${want}`));
    expect(validate(event), JSON.stringify(validate.errors)).toBe(true);
  });

  it("takes and drops the $schema key, and still refuses a key it does not know", () => {
    const $schema = "../schemas/fleet-auditor.audit-event.v1.schema.json";
    expect(parseRunInput({ $schema, audit: "failing" })).toEqual({ audit: "failing" });
    expect(parseStatusQuery({ $schema, node: "edge-1" })).toEqual({ node: "edge-1" });
    expect(() => parseRunInput({ $schema, audit: "failing", dryrun: true })).toThrow(/dryrun/);
    const validate = schemaValidator(read(`schemas/fleet-auditor.audit-event.v1.schema.json`));
    expect(validate({ audit: "failing", dryrun: true })).toBe(false);
  });
});
