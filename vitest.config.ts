import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    pool: "forks",
    testTimeout: 20_000,
    hookTimeout: 20_000,
    restoreMocks: true,
    reporters: process.env.CI ? ["default", ["json", { outputFile: ".vitest-results.json" }]] : ["default"],
  },
});
