import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { schemaFiles, schemaFileText } from "../../tools/schema-files.ts";

// `npm run schema` writes each published schema as it is committed, byte for byte: formatted as
// Biome formats it, so that a regenerated schema needs no `biome format --write` to pass lint.

describe("npm run schema", () => {
  it.each(schemaFiles().map(([name, schema]) => ({ name, schema })))(
    "writes schemas/$name exactly as it is committed",
    ({ name, schema }) => {
      const committed = readFileSync(new URL(`../../schemas/${name}`, import.meta.url), "utf8");
      expect(schemaFileText(name, schema)).toBe(committed);
    },
  );

  it("formats as Biome does, not as JSON.stringify alone does: short arrays on one line", () => {
    const schema = { type: "object", required: ["a", "b"] };
    expect(schemaFileText("fleet-auditor.probe.schema.json", schema)).toBe(
      '{\n  "type": "object",\n  "required": ["a", "b"]\n}\n',
    );
  });
});
