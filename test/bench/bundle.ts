import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BuildOptions, build } from "esbuild";

const ROOT = new URL("../../", import.meta.url).pathname;

/**
 * SST's esbuild settings for a Lambda handler (its `pkg/runtime/node/build.go`): ESM, minified,
 * names kept (`KeepNames`, which adds about 5 %), nothing external and no esbuild plugin
 * (sst.config.ts gives the functions none: `test/unit/sst-wiring.test.ts` holds it).
 */
const AS_SST_BUNDLES: BuildOptions = {
  bundle: true,
  keepNames: true,
  platform: "node",
  format: "esm",
  target: "node22",
  minify: true,
  mainFields: ["module", "main"],
  banner: {
    js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  },
  logLevel: "error",
};

/**
 * Bundles an entry the way SST bundles a Lambda handler (ESM, node22, minified, nothing
 * external), so a benchmark runs what production runs instead of type-stripped TypeScript.
 */
export async function bundleForNode(entry: URL): Promise<string> {
  const outfile = join(mkdtempSync(join(tmpdir(), "fleet-bench-")), "entry.mjs");
  await build({ ...AS_SST_BUNDLES, entryPoints: [entry.pathname], outfile });
  return outfile;
}

/**
 * Bundles module source (resolved from the repository's root) as `bundleForNode` bundles a file:
 * a yardstick that is no file of the product, e.g. an AWS SDK client alone.
 */
export async function bundleSource(contents: string): Promise<string> {
  const outfile = join(mkdtempSync(join(tmpdir(), "fleet-bench-")), "entry.mjs");
  await build({ ...AS_SST_BUNDLES, stdin: { contents, resolveDir: ROOT, loader: "ts" }, outfile });
  return outfile;
}

/** Bundles several functions (`functions/<name>.ts`) in one esbuild run; the file of each, by name. */
export async function bundleFunctions(names: string[]): Promise<Record<string, string>> {
  const outdir = mkdtempSync(join(tmpdir(), "fleet-bench-"));
  await build({
    ...AS_SST_BUNDLES,
    entryPoints: Object.fromEntries(names.map((n) => [n, join(ROOT, "functions", `${n}.ts`)])),
    outdir,
    outExtension: { ".js": ".mjs" },
  });
  return Object.fromEntries(names.map((n) => [n, join(outdir, `${n}.mjs`)]));
}
