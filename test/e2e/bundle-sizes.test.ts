import { readdirSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { BUNDLE_BAR_BYTES, FUNCTIONS, measureBundles } from "../bench/bundles.ts";
import { measureFirstRun } from "../bench/first-run.ts";

// The functions as SST deploys them (esbuild, ESM, node22, minified, the undici package and the
// AWS SDK inside), measured as `npm run bench -- bundle` measures them, in one round. The size
// bar holds here; the import time's bar (a ratio to the SDK clients alone) is the benchmark's to
// judge over its rounds: one round on a shared machine says nothing about it.

describe("the functions' bundles", () => {
  it("weigh at most 2 MB each, and each loads in a fresh process as the benchmark times it", async () => {
    const deployed = readdirSync(new URL("../../functions/", import.meta.url))
      .filter((f) => f.endsWith(".ts"))
      .map((f) => f.replace(/\.ts$/, ""));
    expect(Object.keys(FUNCTIONS).sort()).toEqual(deployed.sort());
    expect(BUNDLE_BAR_BYTES).toBe(2_000_000);
    const { sdk, functions } = await measureBundles(1, inject("functionBundles"));
    expect(sdk.medianMs).toBeGreaterThan(0);
    for (const f of functions) {
      expect(f.bytes, `${f.name}: ${f.bytes} bytes`).toBeLessThanOrEqual(BUNDLE_BAR_BYTES);
      expect(f.sizeOk, f.name).toBe(true);
      // Each bundle loads (a failed import would throw); its time is a ratio, judged by the benchmark.
      expect(f.ratio, f.name).toBeGreaterThan(0);
    }
  }, 120_000);

  it("start the audit function cold and complete its first run, timed as the benchmark times it", async () => {
    // What the import leaves to first use (undici, the number format) runs here: it must work.
    const first = await measureFirstRun(inject("functionBundles").audit as string, 1);
    expect(first.importMs).toBeGreaterThan(0);
    expect(first.runMs).toBeGreaterThan(0);
    expect(first.totalCpuMs).toBe(first.importCpuMs + first.runCpuMs);
  }, 120_000);
});
