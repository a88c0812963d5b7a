import { generateFleet } from "@fleet-auditor/keb-kubeedge-sim";
import { type AuditRunDeps, runAudit } from "@fleet-auditor/use-cases";
import { beforeEach, describe, expect, it } from "vitest";
import { useKebSimulator } from "../../helpers/keb.ts";
import { MemoryAuditStore, MemoryPublisher, MemoryReportStore } from "../../helpers/memory-ports.ts";
import { withDeps } from "../../helpers/run-deps.ts";
import { testAudits } from "../../helpers/test-audits.ts";

// A run has one deadline. A KEB that answers, slowly, must not carry a run past its Lambda
// timeout (which writes no metric, no health and no notice): the run ends incomplete instead.

const kit = useKebSimulator({ fleet: { size: 10, seed: 1 } });
const hour = (h: number): string => new Date(Date.UTC(2026, 10, 1, h)).toISOString();

let store: MemoryAuditStore;
let publisher: MemoryPublisher;
let deps: AuditRunDeps;

beforeEach(() => {
  kit.sim.faults.clear();
  kit.sim.faults.latencyMs = 0;
  // 1,500 runtimes: the failing audit reads several pages of 100 at concurrency 1.
  kit.sim.fleet.reset(generateFleet({ size: 1_500, seed: 4, flagged: 900 }));
  store = new MemoryAuditStore();
  publisher = new MemoryPublisher();
  deps = {
    ports: {
      audits: testAudits({ client: kit.client(), concurrency: 1 }),
      store,
      publisher,
      reports: new MemoryReportStore(),
    },
  };
});

const run = (h: number, signal?: AbortSignal) =>
  runAudit(
    withDeps(deps, { hooks: { clock: () => new Date(hour(h)) } }),
    { audit: "failing", scheduledTime: hour(h) },
    signal ? { signal } : {},
  );

describe("the run deadline", () => {
  it("ends a run over a slow KEB incomplete when the deadline passes, resolving nothing", async () => {
    const first = await run(0);
    expect(first.complete).toBe(true);
    const pagesWhole = first.queries.reduce((n, q) => n + q.pages, 0);
    kit.sim.faults.latencyMs = 150;
    const slow = await run(1, AbortSignal.timeout(400));
    expect(slow.complete).toBe(false);
    expect(slow.incompleteCode).toBe("KEB_DEADLINE");
    expect(slow.queries.reduce((n, q) => n + q.pages, 0)).toBeLessThan(pagesWhole);
    expect(slow.transitions.filter((t) => t.kind === "resolved")).toEqual([]);
    expect(slow.health?.badRuns).toBe(1);
  });

  it("counts runs out of time toward degraded and sends one notice", async () => {
    await run(0);
    kit.sim.faults.latencyMs = 150;
    for (const h of [1, 2, 3]) await run(h, AbortSignal.timeout(300));
    const notices = publisher.published.filter((m) => m.attributes.kinds.includes("degraded"));
    expect(notices).toHaveLength(1);
  });

  it("ends the run incomplete when the deadline passes while the snapshot loads", async () => {
    await run(0);
    const load = store.loadSnapshot.bind(store);
    store.loadSnapshot = async (audit) => {
      await new Promise((r) => setTimeout(r, 500));
      return load(audit);
    };
    const out = await run(1, AbortSignal.timeout(100));
    expect(out).toMatchObject({
      complete: false,
      incompleteCode: "RUN_DEADLINE",
      incompleteReason: "the run's deadline passed while loading the audit's snapshot",
      transitions: [],
      health: { badRuns: 1 },
    });
  });
});
