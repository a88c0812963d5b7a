import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import { bundleFunctions, bundleSource } from "./bundle.ts";

const MB = 1_000_000;

/**
 * Each function with the most its bundle may weigh (minified, as SST bundles it): the audit
 * functions 1.5 MB, every other function 1 MB (Slack and the pager carry undici, less its unused
 * Milo parser, and the Secrets Manager client). And the variables it needs to load (the Slack
 * function's bot, its heavier path).
 */
export const FUNCTIONS: Record<string, { bytes: number; env: Record<string, string> }> = {
  audit: {
    bytes: 1.5 * MB,
    env: {
      KEB_URL: "https://keb.example",
      KEB_TOKEN: "bench",
      AUDIT_TABLE: "bench-audit",
      ALERT_TOPIC_ARN: "arn:aws:sns:eu-central-1:123456789012:alerts",
    },
  },
  "applications-audit": {
    bytes: 1.5 * MB,
    env: {
      AUDIT_TABLE: "bench-audit",
      STATUS_TABLE: "bench-status",
      ALERT_TOPIC_ARN: "arn:aws:sns:eu-central-1:123456789012:alerts",
    },
  },
  applications: { bytes: MB, env: { STATUS_TABLE: "bench-status" } },
  "application-status": { bytes: MB, env: { STATUS_TABLE: "bench-status" } },
  slack: {
    bytes: MB,
    env: { SLACK_BOT_TOKEN: "xoxb-bench", SLACK_CHANNEL: "C0BENCH", AUDIT_TABLE: "bench-audit" },
  },
  pager: { bytes: MB, env: { PAGERDUTY_ROUTING_KEY: "0123456789abcdef0123456789abcdef" } },
};

/** The yardstick of import time: a bundle of one AWS SDK client, constructed, and nothing else. */
const SDK_CLIENT_ALONE = `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
export const client = new DynamoDBClient({});`;

/** A function's bundle: its size against its bar, and its import time. */
export interface BundleFigures {
  name: string;
  bytes: number;
  bar: number;
  ok: boolean;
  /** Median import time, ms, and the fastest and slowest round. */
  importMs: { median: number; min: number; max: number };
  /** Median over the rounds of its import time over the SDK client's in the same round. */
  ratio: number;
}

/**
 * Bundles every function (in one esbuild run) and the yardstick, then imports each in a fresh
 * Node process `rounds` times: the yardstick and every function once per round, one after the
 * other, so that a ratio compares times taken under the same load.
 */
export async function measureBundles(
  rounds: number,
  /** Bundles already built (`bundleFunctions` of every function), e.g. by the tests' global setup. */
  built?: Readonly<Record<string, string>>,
): Promise<{ sdk: { bytes: number; medianMs: number }; functions: BundleFigures[] }> {
  const files = built ?? (await bundleFunctions(Object.keys(FUNCTIONS)));
  const yardstick = await bundleSource(SDK_CLIENT_ALONE);
  const sdk: number[] = [];
  const own = new Map<string, number[]>(Object.keys(FUNCTIONS).map((n) => [n, []]));
  for (let round = 0; round < rounds; round++) {
    sdk.push(importMs(yardstick, {}));
    for (const [name, { env }] of Object.entries(FUNCTIONS))
      own.get(name)?.push(importMs(files[name] as string, env));
  }
  const functions = Object.entries(FUNCTIONS).map(([name, { bytes: bar }]): BundleFigures => {
    const times = own.get(name) ?? [];
    const bytes = statSync(files[name] as string).size;
    return {
      name,
      bytes,
      bar,
      ok: bytes <= bar,
      importMs: { median: median(times), min: Math.min(...times), max: Math.max(...times) },
      ratio: median(times.map((t, i) => t / (sdk[i] ?? Number.NaN))),
    };
  });
  return { sdk: { bytes: statSync(yardstick).size, medianMs: median(sdk) }, functions };
}

/**
 * `npm run bench -- bundle`: each function bundled as SST bundles it, its size against its bar,
 * and the time a fresh Node process takes to import it (the cold start's own share: module
 * evaluation, config parsing, client construction) as a ratio to the import of a bundle of the
 * AWS SDK client alone, measured in the same rounds: an absolute time on these shared machines
 * varies threefold with their load, a ratio much less. The figure is the median of the rounds'
 * ratios. Sizes have bars, import times none.
 */
export async function benchBundles(options: { rounds?: number } = {}): Promise<boolean> {
  const rounds = options.rounds ?? 11;
  const say = (line: string): void => void process.stdout.write(`${line}\n`);
  say(
    `Bundle benchmark (node ${process.version}; esbuild as SST bundles handlers; import time as a ratio ` +
      `to an AWS SDK client alone, median of ${rounds} rounds)`,
  );
  const { sdk, functions } = await measureBundles(rounds);
  say(
    `  ${"AWS SDK client alone".padEnd(20)} ${kb(sdk.bytes)}                        import ${ms(sdk.medianMs)} (1.00×)`,
  );
  for (const f of functions) {
    say(
      `  ${f.name.padEnd(20)} ${kb(f.bytes)} (bar ${f.bar / 1000} KB) ${f.ok ? "PASS" : "FAIL"}` +
        `   import ${ms(f.importMs.median)} (${f.ratio.toFixed(2)}× the SDK client; ` +
        `${ms(f.importMs.min)}–${ms(f.importMs.max)})`,
    );
  }
  return functions.every((f) => f.ok);
}

/** The time a fresh Node process takes to import `file`, ms. */
function importMs(file: string, env: Record<string, string>): number {
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
        ...env,
      },
    },
  );
  return Number(out.toString());
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const kb = (bytes: number): string => `${(bytes / 1000).toFixed(0).padStart(5)} KB`;
const ms = (t: number): string => `${t.toFixed(0).padStart(4)} ms`;
