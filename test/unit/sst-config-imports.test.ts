import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// SST refuses a config with top-level imports ("Move imports inside the function they are used
// and do a dynamic import"): `sst install`, and so CI, fails on one. Type-only imports are erased
// before SST looks; the infra modules are loaded with `await import()` inside `app()` and `run()`.

const CONFIG = readFileSync(new URL("../../sst.config.ts", import.meta.url), "utf8");

/** The top-level import statements of a module that load something at run time. */
function valueImports(source: string): string[] {
  return source.split("\n").filter((line) => /^import\s/.test(line) && !/^import\s+type\s/.test(line));
}

describe("sst.config.ts", () => {
  it("has no top-level import that loads a module, only types", () => {
    expect(valueImports(CONFIG)).toEqual([]);
    expect(CONFIG).toMatch(/await import\(\s*"\.\/infra\/alarms\.ts"/);
  });

  it("can fail: a value import is found", () => {
    expect(valueImports('import { a } from "./infra/a.ts";\nimport type { B } from "./b.ts";')).toEqual([
      'import { a } from "./infra/a.ts";',
    ]);
  });
});
