import { BaseSequencer, type TestSpecification } from "vitest/node";

// Vitest starts the files that took longest last time first, from its cache of durations; a
// fresh clone (CI) has no cache, and its longest files started late made `npm test` 18 s slower
// there (248 s against 230 s, measured on 2026-12-03). These, the longest then, start first
// wherever the cache does not say otherwise; the rest keep Vitest's order.
const SLOW_FIRST = [
  "test/e2e/audit-faults.test.ts",
  "test/e2e/benchmarks.test.ts",
  "test/integration/use-cases/run-audit.test.ts",
  "test/e2e/iam-contract.test.ts",
  "test/e2e/act-where-it-lands.test.ts",
  "test/e2e/applications-faults.test.ts",
  "test/e2e/no-secret-property.test.ts",
  "test/e2e/pasted-silence.test.ts",
  "test/e2e/storm-event.test.ts",
  "test/e2e/cli-process.test.ts",
  "test/integration/use-cases/unjammable-property.test.ts",
  "test/unit/use-cases/no-false-resolve.test.ts",
];

/** Vitest's order, with the files known to be slowest moved to the front. */
export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification): number => {
      const i = SLOW_FIRST.findIndex((slow) => f.moduleId.endsWith(slow));
      return i < 0 ? SLOW_FIRST.length : i;
    };
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}
