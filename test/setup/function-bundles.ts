import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { TestProject } from "vitest/node";
import { bundleFunctions } from "../bench/bundle.ts";
import { FUNCTIONS } from "../bench/bundles.ts";

// Every function bundled once per test run, as SST bundles it, in one esbuild run: the tests of
// the bundles (their sizes, the handlers as deployed, the metrics they print) share these files
// instead of each building its own (about 3 s each on these machines). The CLI likewise, once, as
// `npm run build:cli` builds it: the tests that start the CLI as a process run that file, which
// starts in about a third of the CPU of main.ts type-stripped (0.4 s against 1.1 s, measured).

declare module "vitest" {
  export interface ProvidedContext {
    /** Each function's bundle file, by name (`functions/<name>.ts`). */
    functionBundles: Record<string, string>;
    /** The bundled CLI (`npm run build:cli`), in a temporary directory outside the repository. */
    cliBundle: string;
  }
}

const BUILD_CLI = new URL("../../packages/cli/scripts/build.ts", import.meta.url).pathname;

/** `npm run build:cli -- --outfile …` into a fresh temporary directory; fails with what it printed. */
function buildCli(): Promise<string> {
  const outfile = join(mkdtempSync(join(tmpdir(), "fa-bundle-")), "fleet-auditor.mjs");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUILD_CLI, "--outfile", outfile], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => {
      output += d;
    });
    child.stderr.on("data", (d: Buffer) => {
      output += d;
    });
    child.on("close", (code) =>
      code === 0 ? resolve(outfile) : reject(new Error(`npm run build:cli failed (${code}):\n${output}`)),
    );
  });
}

/**
 * @public Vitest's `globalSetup` calls it; nothing imports it. Returns the teardown, which removes
 * the bundles' temporary directories (the CLI's alone 6.4 MB a run, left behind before).
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const [functions, cli] = await Promise.all([bundleFunctions(Object.keys(FUNCTIONS)), buildCli()]);
  project.provide("functionBundles", functions);
  project.provide("cliBundle", cli);
  const dirs = new Set([dirname(cli), ...Object.values(functions).map((file) => dirname(file))]);
  return () => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
}
