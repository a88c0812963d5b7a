import type { TestProject } from "vitest/node";
import { bundleFunctions } from "../bench/bundle.ts";
import { FUNCTIONS } from "../bench/bundles.ts";

// Every function bundled once per test run, as SST bundles it, in one esbuild run: the tests of
// the bundles (their sizes, the handlers as deployed, the metrics they print) share these files
// instead of each building its own (about 3 s each on these machines).

declare module "vitest" {
  export interface ProvidedContext {
    /** Each function's bundle file, by name (`functions/<name>.ts`). */
    functionBundles: Record<string, string>;
  }
}

/** @public Vitest's `globalSetup` calls it; nothing imports it. */
export default async function setup(project: TestProject): Promise<void> {
  project.provide("functionBundles", await bundleFunctions(Object.keys(FUNCTIONS)));
}
