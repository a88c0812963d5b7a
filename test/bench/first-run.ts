import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { startKebSimulator } from "@fleet-auditor/keb-kubeedge-sim";
import { startEmbeddedDynamo } from "@fleet-auditor/store";

const run = promisify(execFile);

/** One cold start of the audit function: its import, then its first run, ms of wall-clock and CPU time. */
interface FirstRun {
  importMs: number;
  importCpuMs: number;
  runMs: number;
  runCpuMs: number;
}

/** The medians of `rounds` cold starts: import, first run and both together, wall-clock and CPU, ms. */
export interface FirstRunFigures {
  importMs: number;
  runMs: number;
  totalMs: number;
  importCpuMs: number;
  runCpuMs: number;
  totalCpuMs: number;
}

/**
 * What a fresh process of the audit function costs until its first run has ended: the import
 * (which the import ratio measures), then a dry run of the `failing` audit against a KEB
 * simulator (200 runtimes, 20 flagged) and dynalite, each on loopback. A cold start that defers
 * work to its first use (undici at the first request, the number format at the first count)
 * moves time from the import into the run; this says whether the two together grew.
 */
export async function measureFirstRun(bundle: string, rounds: number): Promise<FirstRunFigures> {
  const sim = await startKebSimulator({ fleet: { size: 200, seed: 101, flagged: 20 } });
  const db = await startEmbeddedDynamo({ tables: ["bench-audit"] });
  const env = {
    PATH: process.env.PATH ?? "",
    AWS_REGION: "eu-central-1",
    AWS_ACCESS_KEY_ID: "bench",
    AWS_SECRET_ACCESS_KEY: "bench",
    AWS_ENDPOINT_URL_DYNAMODB: db.endpoint,
    POWERTOOLS_METRICS_DISABLED: "true",
    POWERTOOLS_LOG_LEVEL: "CRITICAL",
    KEB_URL: sim.url,
    KEB_TOKEN: "bench",
    AUDIT_TABLE: "bench-audit",
    ALERT_TOPIC_ARN: "arn:aws:sns:eu-central-1:123456789012:alerts",
  };
  const runs: FirstRun[] = [];
  try {
    // Asynchronously: the simulator and dynalite answer from this process meanwhile.
    for (let round = 0; round < rounds; round++) {
      const { stdout } = await run(process.execPath, ["--input-type=module", "-e", coldStart(bundle)], {
        env,
        maxBuffer: 1 << 24,
      });
      runs.push(JSON.parse(stdout) as FirstRun);
    }
  } finally {
    await sim.close();
    await db.close();
  }
  const med = (pick: (r: FirstRun) => number): number => median(runs.map(pick));
  return {
    importMs: med((r) => r.importMs),
    runMs: med((r) => r.runMs),
    totalMs: med((r) => r.importMs + r.runMs),
    importCpuMs: med((r) => r.importCpuMs),
    runCpuMs: med((r) => r.runCpuMs),
    totalCpuMs: med((r) => r.importCpuMs + r.runCpuMs),
  };
}

/** The child's program: import the bundle, invoke its handler once, print the times (or throw). */
function coldStart(bundle: string): string {
  return `const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const c0 = cpu(), t0 = performance.now();
const { handler } = await import(${JSON.stringify(bundle)});
const c1 = cpu(), t1 = performance.now();
const context = { functionName: "fleet-auditor-audit", functionVersion: "$LATEST", memoryLimitInMB: "512",
  invokedFunctionArn: "arn:aws:lambda:eu-central-1:123456789012:function:fleet-auditor-audit",
  awsRequestId: crypto.randomUUID(), logGroupName: "bench", logStreamName: "bench",
  callbackWaitsForEmptyEventLoop: true, getRemainingTimeInMillis: () => 60000 };
const summary = await handler({ audit: "failing", dryRun: true }, context);
const c2 = cpu(), t2 = performance.now();
if (summary?.status !== "completed" || !summary.complete || !(summary.flagged > 0))
  throw new Error("the first run did not complete: " + JSON.stringify(summary));
process.stdout.write(JSON.stringify({ importMs: t1 - t0, importCpuMs: c1 - c0, runMs: t2 - t1, runCpuMs: c2 - c1 }));
process.exit(0);`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}
