import { spawnSync } from "node:child_process";
import {
  KebClient,
  KebTransport,
  type RuntimeFilters,
  StaticTokenProvider,
  scanAll,
} from "@fleet-auditor/keb";
import { bundleForNode } from "./bundle.ts";
import { type BenchOptions, fmt, median, Report, spread } from "./kit.ts";
import { sequentialScan } from "./sequential-pager.ts";
import { startChildSim } from "./sim-child.ts";

/** The flagged set: the `failing` audit's two queries and the `expired` audit's one. */
const FLAGGED_QUERIES: RuntimeFilters[] = [
  { states: ["failed", "error"] },
  { states: ["deprovisionincomplete"] },
  { expired: true, states: ["all"] },
];
const CONCURRENCY = 4;
// Listings before the first timed one: a warm Lambda's code is optimised by its earlier runs, and
// a page's parsing settles only after some hundreds of pages.
const WARM_UP = 10;

/** The parameters, and a smoke size that runs in seconds. */
const SIZES = {
  full: { size: 50_000, flagged: 5_000, latency: 20, rounds: 5, memoryFleet: 100_000 },
  smoke: { size: 1_200, flagged: 200, latency: 5, rounds: 1, memoryFleet: 1_500 },
};

/**
 * `npm run bench -- keb`: listing the flagged set against its lower bound `ceil(pages /
 * concurrency) × latency` and against a sequential pager, and peak memory listing a whole fleet.
 */
export async function benchKeb(options: BenchOptions = {}): Promise<boolean> {
  const p = options.smoke ? SIZES.smoke : SIZES.full;
  const report = new Report(options);
  const say = report.say;
  say(`KEB client benchmark (node ${process.version}, ${p.rounds} rounds, medians)`);

  const sim = await startChildSim({ size: p.size, flagged: p.flagged, latency: p.latency });
  const client = new KebClient({
    baseUrl: sim.url,
    transport: new KebTransport(),
    tokenProvider: new StaticTokenProvider("bench"),
  });
  try {
    // Warm-up: JIT, sockets, the simulator's caches, and each query's totalCount for the pager.
    for (let i = 0; i < WARM_UP; i++) await scanAll(client, FLAGGED_QUERIES, { concurrency: CONCURRENCY });
    const ours: number[] = [];
    const sequential: number[] = [];
    const alone: number[] = [];
    let pages = 0;
    let listed = 0;
    for (let round = 0; round < p.rounds; round++) {
      let t = performance.now();
      const scans = await scanAll(client, FLAGGED_QUERIES, { concurrency: CONCURRENCY });
      ours.push(performance.now() - t);
      if (!scans.every((s) => s.complete)) throw new Error("benchmark scan was incomplete");
      pages = scans.reduce((n, s) => n + s.pages, 0);
      listed = scans.reduce((n, s) => n + s.listed, 0);
      t = performance.now();
      for (const q of FLAGGED_QUERIES) await sequentialScan(client, q);
      sequential.push(performance.now() - t);
      // One full page at a time: what a single request costs beyond the latency here.
      for (let page = 1; page <= 3; page++) {
        t = performance.now();
        await client.listPage({ ...FLAGGED_QUERIES[0], page, pageSize: 100, operationDetail: "last" });
        alone.push(performance.now() - t);
      }
    }
    const rounds = Math.ceil(pages / CONCURRENCY);
    const lowerBound = rounds * p.latency;
    const oursMs = median(ours);
    const seqMs = median(sequential);
    const aloneMs = median(alone);
    say(
      `fleet ${p.size} runtimes, ${p.flagged} flagged, ${p.latency} ms latency per request, concurrency ${CONCURRENCY}`,
    );
    say(`flagged set: ${listed} runtimes in ${pages} pages over ${FLAGGED_QUERIES.length} queries`);
    say(`lower bound ceil(${pages}/${CONCURRENCY}) x ${p.latency} ms = ${lowerBound} ms`);
    say(`bounded-concurrency pager: ${fmt(oursMs)} ms (rounds: ${spread(ours)})`);
    say(`sequential pager (KEB's Go client): ${fmt(seqMs)} ms (rounds: ${spread(sequential)})`);
    const toBound = oursMs / lowerBound;
    say(`ratio to lower bound: ${fmt(toBound, 2)}x (no bar: one request alone costs more than the latency)`);
    const speedup = seqMs / oursMs;
    say(`speed-up over sequential: ${fmt(speedup, 2)}x ${report.bar(speedup, ">=", 3, "3.00")}`);
    // Beyond the latency each request also costs the transfer, the timer and the parse; no pager
    // can go below ceil(pages/concurrency) requests each as long as one request alone takes, and
    // that is measured in the same run, so the bar holds the pager, not the machine's load.
    const toAlone = oursMs / (rounds * aloneMs);
    say(`one request alone: ${fmt(aloneMs)} ms (${fmt(aloneMs / p.latency, 2)}x the latency)`);
    say(
      `pager to ceil(${pages}/${CONCURRENCY}) x one request alone: ${fmt(toAlone, 2)} ${report.bar(toAlone, "<=", 1.1, "1.10")}`,
    );
  } finally {
    await sim.stop();
  }

  const big = await startChildSim({ size: p.memoryFleet, flagged: p.memoryFleet / 10, latency: 0 });
  try {
    const bundled = await bundleForNode(new URL("./list-all-process.ts", import.meta.url));
    for (const mode of ["stream", "retain"] as const) {
      const child = spawnSync(process.execPath, [bundled, big.url, mode], { encoding: "utf8" });
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
          `peak RSS, streaming as the audit does: ${fmt(m.peakRssMb)} MB ${report.bar(m.peakRssMb, "<", 200)}`,
        );
      } else {
        say(
          `peak RSS, every runtime retained: ${fmt(m.peakRssMb)} MB (for comparison; ~1.9 KB live per parsed runtime)`,
        );
      }
    }
  } finally {
    await big.stop();
  }
  return report.ok;
}
