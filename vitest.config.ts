import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: one on these 2-core machines. Most
    // tests wait on loopback servers, SDK backoff or child processes, so two overlap well.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 20_000,
    restoreMocks: true,
    reporters: process.env.CI ? ["default", ["json", { outputFile: ".vitest-results.json" }]] : ["default"],
  },
});
