import { spawnSync } from "node:child_process";
import { defineConfig } from "vitest/config";

// The store suite runs twice: on dynalite, and on AWS's DynamoDB Local, which refuses what
// DynamoDB refuses where dynalite does not (empty index keys, item sizes). DynamoDB Local runs on
// Java; without it that half is left out, saying why.
const STORE_SUITE = [
  "test/integration/store/**/*.test.ts",
  "test/integration/use-cases/ingest.test.ts",
  "test/integration/use-cases/applications-audit.test.ts",
  "test/integration/use-cases/hostile-fields.test.ts",
  "test/integration/use-cases/unjammable-property.test.ts",
];
const java = spawnSync("java", ["-version"], { stdio: "ignore" }).status === 0;
// The benchmarks' smoke runs use DynamoDB Local too: with Java, on the project's own instance
// rather than a JVM of their own; without it, on dynalite alone, saying what they leave out.
const BENCHMARKS = "test/e2e/benchmarks.test.ts";
if (!java)
  process.stderr.write("vitest: no java on PATH; the DynamoDB Local half of the store tests is skipped\n");

export default defineConfig({
  test: {
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: one on these 2-core machines. Most
    // tests wait on loopback servers, SDK backoff or child processes, so four overlap well (measured:
    // vitest 263 s with four, 289 s with three, on a quiet machine).
    maxWorkers: 4,
    testTimeout: 20_000,
    hookTimeout: 20_000,
    restoreMocks: true,
    reporters: process.env.CI ? ["default", ["json", { outputFile: ".vitest-results.json" }]] : ["default"],
    projects: [
      // Unit tests hold no servers and no process-wide state between files: they share one module
      // graph per worker instead of loading the packages again for each file.
      { extends: true, test: { name: "unit", include: ["test/unit/**/*.test.ts"], isolate: false } },
      // The packages against real servers (dynalite in process, fauxqs, the KEB simulator): each
      // file starts its own and stops them, so files can share one module graph per worker too.
      {
        extends: true,
        test: { name: "integration", include: ["test/integration/**/*.test.ts"], isolate: false },
      },
      // The functions as deployed (their bundles, cold-started with their variables), the CLI's
      // processes and the soak. Files share one module graph per worker here too (each file loading
      // the SDK, the packages and the helpers afresh cost about a third of the project's CPU): a
      // file cold-starts a function after vi.resetModules, so the function's module state is its
      // own, and what a file leaves in process.env is put back before the next file
      // (test/setup/file-env.ts). The soak measures its process's heap: under `npm run test:soak`
      // each file has a process of its own.
      {
        extends: true,
        test: {
          name: "dynalite",
          include: ["test/**/*.test.ts"],
          // The soak (heap flat over many runs, 100,000 runtimes) is `npm run test:soak`'s alone.
          exclude: [
            "test/unit/**",
            "test/integration/**",
            ...(java ? [BENCHMARKS] : []),
            ...(process.env.FLEET_AUDITOR_SOAK ? [] : ["test/soak/**"]),
          ],
          globalSetup: ["test/setup/function-bundles.ts"],
          isolate: Boolean(process.env.FLEET_AUDITOR_SOAK),
          setupFiles: ["test/setup/file-env.ts"],
        },
      },
      ...(java
        ? [
            {
              extends: true,
              test: {
                name: "dynamodb-local",
                include: [...STORE_SUITE, BENCHMARKS],
                env: { FLEET_AUDITOR_DYNAMO: "local" },
                // The same files share a module graph in project integration; here too (about a
                // quarter of this project's CPU was each file loading the SDK and packages again).
                isolate: false,
                globalSetup: ["test/setup/dynamodb-local.ts"],
              },
            },
          ]
        : []),
    ],
  },
});
