import { readdirSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { FUNCTIONS, measureBundles } from "../bench/bundles.ts";

// The functions as SST deploys them (esbuild, ESM, node22, minified, the undici package and the
// AWS SDK inside), measured as `npm run bench -- bundle` measures them, in one round.

describe("the functions' bundles", () => {
  it("weigh at most 1.5 MB for the audit functions and 1 MB for every other, and import as a ratio to the SDK client alone", async () => {
    const deployed = readdirSync(new URL("../../functions/", import.meta.url))
      .filter((f) => f.endsWith(".ts"))
      .map((f) => f.replace(/\.ts$/, ""));
    expect(Object.keys(FUNCTIONS).sort()).toEqual(deployed.sort());
    const { sdk, functions } = await measureBundles(1, inject("functionBundles"));
    expect(sdk.medianMs).toBeGreaterThan(0);
    for (const f of functions) {
      const heavy = f.name.endsWith("audit");
      expect(f.bar, f.name).toBe(heavy ? 1_500_000 : 1_000_000);
      expect(f.bytes, `${f.name}: ${f.bytes} bytes`).toBeLessThanOrEqual(f.bar);
      // Each bundle loads (a failed import would throw) and its time is a ratio, with no bar.
      expect(f.ratio, f.name).toBeGreaterThan(0);
    }
  }, 120_000);
});
