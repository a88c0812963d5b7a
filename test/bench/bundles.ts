import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import { bundleFunctions, bundleSource } from "./bundle.ts";
import { measureFirstRun } from "./first-run.ts";

/**
 * The most a function's bundle may weigh (minified, as SST bundles it), every function alike:
 * Lambda's cold start grows with what it loads, which the import ratio measures; the size is
 * bounded so that it cannot grow unseen (the audit function, the heaviest, is about 1.5 MB).
 */
export const BUNDLE_BAR_BYTES = 2_000_000;

/**
 * The most a function's cold import may take, as a multiple of the import of the AWS SDK clients
 * alone (`SDK_CLIENTS_ALONE`) measured in the same rounds: what the product adds to the SDK
 * every function loads anyway (undici, zod, Powertools, middy, its own code) may cost at most
 * one and a half times as much again.
 */
const IMPORT_RATIO_BAR = 2.5;

/**
 * Each function, and the variables it needs to load (the Slack function's bot, its heavier
 * path).
 */
export const FUNCTIONS: Record<string, { env: Record<string, string> }> = {
  audit: {
    env: {
      KEB_URL: "https://keb.example",
      KEB_TOKEN: "bench",
      AUDIT_TABLE: "bench-audit",
      ALERT_TOPIC_ARN: "arn:aws:sns:eu-central-1:123456789012:alerts",
    },
  },
  "applications-audit": {
    env: {
      AUDIT_TABLE: "bench-audit",
      STATUS_TABLE: "bench-status",
      ALERT_TOPIC_ARN: "arn:aws:sns:eu-central-1:123456789012:alerts",
    },
  },
  applications: { env: { STATUS_TABLE: "bench-status" } },
  "application-status": { env: { STATUS_TABLE: "bench-status" } },
  slack: {
    env: { SLACK_BOT_TOKEN: "xoxb-bench", SLACK_CHANNEL: "C0BENCH", AUDIT_TABLE: "bench-audit" },
  },
  pager: { env: { PAGERDUTY_ROUTING_KEY: "0123456789abcdef0123456789abcdef" } },
  "slack-actions": {
    env: {
      SLACK_SIGNING_SECRET: "bench-signing-secret",
      SLACK_TEAM_ID: "T0BENCH",
      SLACK_CHANNEL: "C0BENCH",
      AUDIT_TABLE: "bench-audit",
      INCIDENT_TOPIC_ARN: "arn:aws:sns:eu-central-1:123456789012:incidents",
      CRITICAL_TOPIC_ARN: "arn:aws:sns:eu-central-1:123456789012:critical",
    },
  },
  "pagerduty-webhook": {
    env: {
      PAGERDUTY_WEBHOOK_SECRET: "bench-secret",
      PAGERDUTY_SERVICE_ID: "PBENCH1",
      AUDIT_TABLE: "bench-audit",
    },
  },
};

/**
 * The yardstick of import time: a bundle of the AWS SDK clients the functions use (DynamoDB,
 * its document client, SNS), constructed, and nothing else.
 */
const SDK_CLIENTS_ALONE = `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { SNSClient } from "@aws-sdk/client-sns";
export const documents = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const sns = new SNSClient({});`;

/** A function's bundle: its size and its import time, each against its bar. */
export interface BundleFigures {
  name: string;
  bytes: number;
  /** `bytes` is within `BUNDLE_BAR_BYTES`. */
  sizeOk: boolean;
  /** Median import time, ms, and the fastest and slowest round. */
  importMs: { median: number; min: number; max: number };
  /** Median over the rounds of its import time over the SDK clients' in the same round. */
  ratio: number;
  /** `ratio` is within `IMPORT_RATIO_BAR` (read it from a benchmark's rounds, never from one). */
  ratioOk: boolean;
  /**
   * The same ratio of the import's CPU time (user and system, every thread), no bar: it moves
   * less than the wall-clock one with a neighbour's load, and says whether a FAIL is the load's.
   */
  cpuRatio: number;
}

/**
 * Bundles every function (in one esbuild run) and the yardstick, then imports each in a fresh
 * Node process `rounds` times: the yardstick and every function once per round, one after the
 * other, so that a ratio compares times taken under the same load. The order turns by one each
 * round: on a busy machine the first import after a pause runs measurably slower, and no bundle
 * (the yardstick included) should always be the one that does.
 */
export async function measureBundles(
  rounds: number,
  /** Bundles already built (`bundleFunctions` of every function), e.g. by the tests' global setup. */
  built?: Readonly<Record<string, string>>,
): Promise<{ sdk: { bytes: number; medianMs: number }; functions: BundleFigures[] }> {
  const files = built ?? (await bundleFunctions(Object.keys(FUNCTIONS)));
  const yardstick = await bundleSource(SDK_CLIENTS_ALONE);
  const sdk: ImportTime[] = [];
  const own = new Map<string, ImportTime[]>(Object.keys(FUNCTIONS).map((n) => [n, []]));
  const imports: Array<() => void> = [
    () => sdk.push(importMs(yardstick, {})),
    ...Object.entries(FUNCTIONS).map(
      ([name, { env }]) =>
        () =>
          own.get(name)?.push(importMs(files[name] as string, env)),
    ),
  ];
  for (let round = 0; round < rounds; round++) {
    const start = round % imports.length;
    for (const run of [...imports.slice(start), ...imports.slice(0, start)]) run();
  }
  const functions = Object.keys(FUNCTIONS).map((name): BundleFigures => {
    const times = own.get(name) ?? [];
    const bytes = statSync(files[name] as string).size;
    const walls = times.map((t) => t.wall);
    const ratio = median(times.map((t, i) => t.wall / (sdk[i]?.wall ?? Number.NaN)));
    return {
      name,
      bytes,
      sizeOk: bytes <= BUNDLE_BAR_BYTES,
      importMs: { median: median(walls), min: Math.min(...walls), max: Math.max(...walls) },
      ratio,
      ratioOk: ratio <= IMPORT_RATIO_BAR,
      cpuRatio: median(times.map((t, i) => t.cpu / (sdk[i]?.cpu ?? Number.NaN))),
    };
  });
  return { sdk: { bytes: statSync(yardstick).size, medianMs: median(sdk.map((t) => t.wall)) }, functions };
}

/**
 * `npm run bench -- bundle`: each function bundled as SST bundles it, its size against
 * `BUNDLE_BAR_BYTES`, and the time a fresh Node process takes to import it (the cold start's own
 * share: module evaluation, config parsing, client construction) as a ratio to the import of a
 * bundle of the AWS SDK clients alone, measured in the same rounds, against `IMPORT_RATIO_BAR`:
 * an absolute time on these shared machines varies threefold with their load, a ratio much less.
 * The figure is the median of the rounds' ratios.
 */
export async function benchBundles(options: { rounds?: number } = {}): Promise<boolean> {
  const rounds = options.rounds ?? 11;
  const say = (line: string): void => void process.stdout.write(`${line}\n`);
  say(
    `Bundle benchmark (node ${process.version}; esbuild as SST bundles handlers; import time as a ratio ` +
      `to the AWS SDK clients alone (DynamoDB, lib-dynamodb, SNS), median of ${rounds} rounds)`,
  );
  const files = await bundleFunctions(Object.keys(FUNCTIONS));
  const { sdk, functions } = await measureBundles(rounds, files);
  const pass = (ok: boolean): string => (ok ? "PASS" : "FAIL");
  say(
    `  ${"AWS SDK clients alone".padEnd(21)} ${kb(sdk.bytes)}                        import ${ms(sdk.medianMs)}`,
  );
  for (const f of functions) {
    say(
      `  ${f.name.padEnd(21)} ${kb(f.bytes)} (bar ${BUNDLE_BAR_BYTES / 1000} KB) ${pass(f.sizeOk)}` +
        `   import ${f.ratio.toFixed(2)}× the SDK clients (bar ${IMPORT_RATIO_BAR.toFixed(2)}×) ${pass(f.ratioOk)}` +
        ` (${ms(f.importMs.median)}; ${ms(f.importMs.min)}–${ms(f.importMs.max)}; CPU ${f.cpuRatio.toFixed(2)}×)`,
    );
  }
  // No bar: what a cold start leaves to its first use is paid in its first run, within the run's
  // deadline; this shows that the import and the first run together did not grow.
  const first = await measureFirstRun(files.audit as string, rounds);
  say(
    `  audit cold start, import then a first dry run (KEB simulator, 200 runtimes; dynalite), median of ${rounds}: ` +
      `import ${ms(first.importMs)} + run ${ms(first.runMs)} = ${ms(first.totalMs)} ` +
      `(CPU ${ms(first.importCpuMs)} + ${ms(first.runCpuMs)} = ${ms(first.totalCpuMs)})`,
  );
  return functions.every((f) => f.sizeOk && f.ratioOk);
}

/** One import's wall-clock time and CPU time (user and system), ms. */
interface ImportTime {
  wall: number;
  cpu: number;
}

/** The time a fresh Node process takes to import `file`, and the CPU it spends on it, ms. */
function importMs(file: string, env: Record<string, string>): ImportTime {
  const out = execFileSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `const c = process.cpuUsage(); const t = performance.now(); await import(${JSON.stringify(file)}); ` +
        `const wall = performance.now() - t; const u = process.cpuUsage(c); ` +
        `process.stdout.write(JSON.stringify({ wall, cpu: (u.user + u.system) / 1000 }));`,
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
  return JSON.parse(out.toString()) as ImportTime;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const kb = (bytes: number): string => `${(bytes / 1000).toFixed(0).padStart(5)} KB`;
const ms = (t: number): string => `${t.toFixed(0).padStart(4)} ms`;
