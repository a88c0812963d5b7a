import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { AlertPublisher, DigestMessage } from "@fleet-auditor/audit";
import { KebClient, KebTransport, StaticTokenProvider } from "@fleet-auditor/keb";
import { DynamoAuditStore, DynamoReportStore, documentClient } from "@fleet-auditor/store";
import { runAudit } from "@fleet-auditor/use-cases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChildSim, startChildDynamo, startChildSim } from "../bench/sim-child.ts";
import { testAudits } from "../helpers/test-audits.ts";

// Soak: many runs over a large simulated fleet with 1% of it changing between runs.
// Each run must tell exactly what changed since the run before (every firing and resolve once,
// nothing twice, nothing else), judged against the simulator's own answer to a plain pager, and
// the auditor's heap must stay flat across runs in one process. The simulator and DynamoDB run in
// child processes so that the heap measured is the auditor's. `npm test` runs a short form;
// `npm run test:soak` the full one (100,000 runtimes, 50 runs).

const LONG = process.env.FLEET_AUDITOR_SOAK === "1";
const FLEET = LONG ? 100_000 : 10_000;
const RUNS = LONG ? 50 : 6;
const CHANGING = FLEET / 100;

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

let sim: ChildSim;
let dynamo: { endpoint: string; stop(): Promise<void> };
beforeAll(async () => {
  [sim, dynamo] = await Promise.all([
    startChildSim({ size: FLEET, flagged: FLEET / 20, latency: 0 }),
    startChildDynamo(["soak"]),
  ]);
}, 120_000);
afterAll(async () => {
  await Promise.all([sim?.stop(), dynamo?.stop()]);
});

/** The failing audit's truth, from the simulator by a pager of the test's own. */
async function flaggedBySimulator(): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const states of [["failed", "error"], ["deprovisionincomplete"]]) {
    for (let page = 1; ; page++) {
      const q = new URLSearchParams([
        ...states.map((s): [string, string] => ["state", s]),
        ["page", `${page}`],
        ["page_size", "100"],
      ]);
      const body = (await (await fetch(`${sim.url}/runtimes?${q}`)).json()) as {
        data: Array<{ instanceID: string }>;
        totalCount: number;
      };
      for (const r of body.data) ids.add(r.instanceID);
      if (body.data.length === 0 || page * 100 >= body.totalCount) break;
    }
  }
  return ids;
}

/** Counts publishes and keeps nothing (the report in the store says what a run told). */
class CountingPublisher implements AlertPublisher {
  published = 0;
  async publish(_message: DigestMessage): Promise<{ messageId: string }> {
    return { messageId: `soak-${++this.published}` };
  }
}

describe("soak", () => {
  it(
    `${RUNS} runs over ${FLEET} runtimes, ${CHANGING} changing between runs: each change told once, heap flat`,
    async () => {
      const raw = new DynamoDBClient({
        endpoint: dynamo.endpoint,
        region: "local",
        credentials: { accessKeyId: "soak", secretAccessKey: "soak" },
      });
      const ddb = documentClient(raw);
      const reports = new DynamoReportStore({ client: ddb, tableName: "soak" });
      const publisher = new CountingPublisher();
      const transport = new KebTransport();
      const deps = {
        ports: {
          audits: testAudits({
            client: new KebClient({
              baseUrl: sim.url,
              transport,
              tokenProvider: new StaticTokenProvider("soak"),
            }),
          }),
          store: new DynamoAuditStore({ client: ddb, tableName: "soak" }),
          reports,
          publisher,
        },
      };
      const heap: number[] = [];
      let before = new Set<string>();
      try {
        for (let run = 1; run <= RUNS; run++) {
          if (run > 1) {
            const res = await fetch(`${sim.url}/__sim/mutate`, {
              method: "POST",
              body: JSON.stringify({ fail: CHANGING / 2, recover: CHANGING / 2 }),
            });
            expect(res.status).toBe(200);
          }
          const after = await flaggedBySimulator();
          const summary = await runAudit(deps, { audit: "failing" });
          expect(summary, `run ${run}`).toMatchObject({ complete: true, notified: { failed: 0 } });
          expect(publisher.published, `run ${run} publishes one digest`).toBe(1);
          const report = await reports.loadReport(summary.runId);
          const told = new Map<string, string>();
          for (const t of report?.transitions ?? []) {
            expect(told.has(t.key), `${t.key} told twice in run ${run}`).toBe(false);
            told.set(t.key, t.kind);
          }
          // What changed since the last run, by the simulator; a runtime flagged before and after
          // may also be told `changed` (failing anew for another reason), once.
          const expected = new Map<string, string>([
            ...[...after].filter((id) => !before.has(id)).map((id) => [id, "firing"] as const),
            ...[...before].filter((id) => !after.has(id)).map((id) => [id, "resolved"] as const),
          ]);
          expect(expected.size, `run ${run} sees a change`).toBeGreaterThan(0);
          for (const [id, kind] of told) {
            if (kind === "changed" && before.has(id) && after.has(id)) told.delete(id);
          }
          expect(told, `run ${run} tells exactly what changed`).toEqual(expected);
          expect(summary.notified.transitions).toBe(report?.transitions.length);
          before = after;
          publisher.published = 0;
          gc();
          heap.push(process.memoryUsage().heapUsed);
        }
      } finally {
        raw.destroy();
      }
      const mb = heap.map((h) => Math.round(h / 2 ** 20));
      process.stdout.write(`soak heap after each run (MiB): ${mb.join(" ")}\n`);
      if (RUNS >= 20) {
        // Flat: the last ten runs' heap within 20 MiB of the first ten's, after warm-up.
        const avg = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
        const early = avg(heap.slice(2, 12));
        const late = avg(heap.slice(-10));
        expect(late - early, `heap grew from ${early} to ${late}`).toBeLessThan(20 * 2 ** 20);
      }
    },
    LONG ? 900_000 : 120_000,
  );
});
