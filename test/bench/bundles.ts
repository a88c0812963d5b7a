import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import { bundleForNode } from "./bundle.ts";

/** What each function's bundle may weigh (minified, as SST bundles it) and take to import. */
const BUDGETS: Record<string, { bytes: number; env: Record<string, string> }> = {
  audit: {
    bytes: 1_400_000,
    env: {
      KEB_URL: "https://keb.example",
      KEB_TOKEN: "bench",
      AUDIT_TABLE: "bench-audit",
      ALERT_TOPIC_ARN: "arn:aws:sns:eu-central-1:123456789012:alerts",
    },
  },
  "applications-audit": {
    bytes: 600_000,
    env: {
      AUDIT_TABLE: "bench-audit",
      STATUS_TABLE: "bench-status",
      ALERT_TOPIC_ARN: "arn:aws:sns:eu-central-1:123456789012:alerts",
    },
  },
  applications: { bytes: 600_000, env: { STATUS_TABLE: "bench-status" } },
  "application-status": { bytes: 600_000, env: { STATUS_TABLE: "bench-status" } },
  slack: { bytes: 600_000, env: { SLACK_WEBHOOK_URL: "https://hooks.slack.com/services/bench" } },
};
const IMPORT_BUDGET_MS = 200;
const ROUNDS = 11;

/**
 * `npm run bench -- bundle`: each function bundled as SST bundles it, its size, and the time a
 * fresh Node process takes to import it (the cold start's own share: module evaluation, config
 * parsing, client construction), median of 11 (with the fastest and slowest: these machines are
 * shared, and a round can be slowed by a neighbour), against the budgets.
 */
export async function benchBundles(): Promise<boolean> {
  const say = (line: string): void => void process.stdout.write(`${line}\n`);
  say(
    `Bundle benchmark (node ${process.version}; esbuild as SST bundles handlers; import median of ${ROUNDS})`,
  );
  let ok = true;
  for (const [name, budget] of Object.entries(BUDGETS)) {
    const file = await bundleForNode(new URL(`../../functions/${name}.ts`, import.meta.url));
    const bytes = statSync(file).size;
    const times: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const out = execFileSync(
        process.execPath,
        [
          "--input-type=module",
          "-e",
          `const t = performance.now(); await import(${JSON.stringify(file)}); process.stdout.write(String(performance.now() - t));`,
        ],
        {
          env: {
            PATH: process.env.PATH ?? "",
            AWS_REGION: "eu-central-1",
            AWS_ACCESS_KEY_ID: "bench",
            AWS_SECRET_ACCESS_KEY: "bench",
            POWERTOOLS_METRICS_DISABLED: "true",
            ...budget.env,
          },
        },
      );
      times.push(Number(out.toString()));
    }
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted[Math.floor(ROUNDS / 2)] ?? Number.NaN;
    const sizeOk = bytes <= budget.bytes;
    const importOk = median <= IMPORT_BUDGET_MS;
    ok = ok && sizeOk && importOk;
    say(
      `  ${name.padEnd(20)} ${(bytes / 1000).toFixed(0).padStart(5)} KB (budget ${budget.bytes / 1000} KB) ${sizeOk ? "PASS" : "FAIL"}` +
        `   import ${median.toFixed(0).padStart(4)} ms (${(sorted[0] ?? 0).toFixed(0)}–${(sorted.at(-1) ?? 0).toFixed(0)}; budget ${IMPORT_BUDGET_MS} ms) ${importOk ? "PASS" : "FAIL"}`,
    );
  }
  return ok;
}
