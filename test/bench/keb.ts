import { spawnSync } from "node:child_process";
import {
  KebClient,
  KebTransport,
  type RuntimeFilters,
  StaticTokenProvider,
  scanAll,
} from "@fleet-auditor/keb";
import { bundleForNode } from "./bundle.ts";
import { sequentialScan } from "./sequential-pager.ts";
import { startChildSim } from "./sim-child.ts";

/** The flagged set: the `failing` audit's two queries and the `expired` audit's one. */
const FLAGGED_QUERIES: RuntimeFilters[] = [
  { states: ["failed", "error"] },
  { states: ["deprovisionincomplete"] },
  { expired: true, states: ["all"] },
];
const LATENCY_MS = 20;
const CONCURRENCY = 4;
const ROUNDS = 5;

const median = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const fmt = (n: number, digits = 1): string => n.toFixed(digits);

/** `npm run bench -- keb`: listing speed against the bounds, and peak memory for 100,000 runtimes. */
export async function benchKeb(): Promise<boolean> {
  const out: string[] = [];
  const say = (line: string): void => {
    out.push(line);
    process.stdout.write(`${line}\n`);
  };
  say(`KEB client benchmark (node ${process.version}, ${ROUNDS} rounds, medians)`);

  const sim = await startChildSim({ size: 50_000, flagged: 5_000, latency: LATENCY_MS });
  const transport = new KebTransport();
  const client = new KebClient({
    baseUrl: sim.url,
    transport,
    tokenProvider: new StaticTokenProvider("bench"),
  });
  let ok = true;
  try {
    await scanAll(client, FLAGGED_QUERIES, { concurrency: CONCURRENCY }); // warm-up: JIT, sockets, simulator caches
    const ours: number[] = [];
    const sequential: number[] = [];
    let pages = 0;
    let listed = 0;
    for (let round = 0; round < ROUNDS; round++) {
      let t = performance.now();
      const scans = await scanAll(client, FLAGGED_QUERIES, { concurrency: CONCURRENCY });
      ours.push(performance.now() - t);
      if (!scans.every((s) => s.complete)) throw new Error("benchmark scan was incomplete");
      pages = scans.reduce((n, s) => n + s.pages, 0);
      listed = scans.reduce((n, s) => n + s.listed, 0);
      t = performance.now();
      for (const q of FLAGGED_QUERIES) await sequentialScan(client, q);
      sequential.push(performance.now() - t);
    }
    const lowerBound = Math.ceil(pages / CONCURRENCY) * LATENCY_MS;
    const oursMs = median(ours);
    const seqMs = median(sequential);
    say(
      `fleet 50000 runtimes, 5000 flagged, ${LATENCY_MS} ms latency per request, concurrency ${CONCURRENCY}`,
    );
    say(`flagged set: ${listed} runtimes in ${pages} pages over ${FLAGGED_QUERIES.length} queries`);
    say(`lower bound ceil(${pages}/${CONCURRENCY}) x ${LATENCY_MS} ms = ${lowerBound} ms`);
    say(`bounded-concurrency pager: ${fmt(oursMs)} ms (rounds: ${ours.map((x) => fmt(x, 0)).join(", ")})`);
    say(
      `sequential pager (KEB's Go client): ${fmt(seqMs)} ms (rounds: ${sequential.map((x) => fmt(x, 0)).join(", ")})`,
    );
    const toBound = oursMs / lowerBound;
    const speedup = seqMs / oursMs;
    say(`ratio to lower bound: ${fmt(toBound, 2)} (bar <= 1.30) ${toBound <= 1.3 ? "PASS" : "FAIL"}`);
    say(`speed-up over sequential: ${fmt(speedup, 2)}x (bar >= 3.00) ${speedup >= 3 ? "PASS" : "FAIL"}`);
    ok = toBound <= 1.3 && speedup >= 3;
  } finally {
    await sim.stop();
  }

  const big = await startChildSim({ size: 100_000, flagged: 10_000, latency: 0 });
  try {
    const bundled = await bundleForNode(new URL("./list-all-process.ts", import.meta.url));
    for (const mode of ["stream", "retain"] as const) {
      const child = spawnSync(process.execPath, [bundled, big.url, mode], {
        encoding: "utf8",
      });
      if (child.status !== 0) throw new Error(`list-all failed: ${child.stderr}`);
      const m = JSON.parse(child.stdout) as {
        listed: number;
        kept: number;
        pages: number;
        ms: number;
        peakRssMb: number;
      };
      const what = mode === "stream" ? `streamed, ${m.kept} flagged kept` : `all ${m.kept} kept in memory`;
      say(
        `memory (${mode}, bundled as for Lambda): ${m.listed} runtimes listed with op_detail=last in ${m.pages} pages (${what}), ${fmt(m.ms, 0)} ms`,
      );
      if (mode === "stream") {
        say(
          `peak RSS, streaming as the audit does: ${fmt(m.peakRssMb)} MB (bar < 200) ${m.peakRssMb < 200 ? "PASS" : "FAIL"}`,
        );
        ok &&= m.peakRssMb < 200;
      } else {
        say(
          `peak RSS, every runtime retained: ${fmt(m.peakRssMb)} MB (for comparison; ~1.9 KB live per parsed runtime)`,
        );
      }
    }
  } finally {
    await big.stop();
  }
  return ok;
}
