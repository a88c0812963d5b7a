import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";

/**
 * Bundles an entry the way SST bundles a Lambda handler (ESM, node22, minified, nothing
 * external), so a benchmark runs what production runs instead of type-stripped TypeScript.
 */
export async function bundleForNode(entry: URL): Promise<string> {
  const outfile = join(mkdtempSync(join(tmpdir(), "fleet-bench-")), "entry.mjs");
  await build({
    entryPoints: [entry.pathname],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    minify: true,
    mainFields: ["module", "main"],
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    logLevel: "error",
  });
  return outfile;
}
