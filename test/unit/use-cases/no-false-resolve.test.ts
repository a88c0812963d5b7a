import { KebHttpError, type ListParameters, type RuntimeSource, type RuntimesPage } from "@fleet-auditor/keb";
import { Fleet, generateFleet } from "@fleet-auditor/keb-kubeedge-sim";
import { type AuditRunDeps, runAudit } from "@fleet-auditor/use-cases";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  FleetSource,
  MemoryAuditStore,
  MemoryPublisher,
  MemoryReportStore,
} from "../../helpers/memory-ports.ts";
import { withDeps } from "../../helpers/run-deps.ts";
import { testAudits } from "../../helpers/test-audits.ts";

// "no false resolve, as a property". A KEB that misbehaves in any combination while the
// audit pages (short pages, extra and repeated rows, a totalCount that lies or changes, errors,
// rows deleted or inserted between page reads, a filtered run): afterwards every `resolved`
// runtime is truly not flagged in the fleet as it is at the end, and an incomplete run resolves
// nothing. The ID lookup that confirms absences may fail, but is not made to lie: a KEB that hides
// a row and lowers totalCount to match is indistinguishable from one without that row.

const RUNS = Number(process.env.FLEET_AUDITOR_PROPERTY_RUNS ?? 25);
const T0 = Date.UTC(2026, 10, 1);
const at = (h: number): string => new Date(T0 + h * 3_600_000).toISOString();

type Misbehaviour =
  | { kind: "short" | "extra" | "repeat" | "total+" | "total-"; page: number; n: number }
  | { kind: "error" | "delete" | "insert" | "balanced"; page: number; n: number };

const misbehaviour: fc.Arbitrary<Misbehaviour> = fc.record({
  kind: fc.constantFrom(
    "short",
    "extra",
    "repeat",
    "total+",
    "total-",
    "error",
    "delete",
    "insert",
    "balanced",
  ),
  page: fc.integer({ min: 1, max: 3 }),
  n: fc.integer({ min: 1, max: 4 }),
}) as fc.Arbitrary<Misbehaviour>;

/** The simulator's answers, bent by the misbehaviours while the audit's own queries page. */
class MisbehavingSource implements RuntimeSource {
  readonly #honest: FleetSource;
  readonly #fleet: Fleet;
  readonly #plan: Misbehaviour[];
  constructor(fleet: Fleet, plan: Misbehaviour[]) {
    this.#honest = new FleetSource(fleet);
    this.#fleet = fleet;
    this.#plan = [...plan];
  }

  async listPage(params: ListParameters): Promise<RuntimesPage> {
    const lookup = params.instanceIDs !== undefined;
    const page = params.page ?? 1;
    const take = this.#plan.findIndex((m) => m.page === page && (!lookup || m.kind === "error"));
    const m = take >= 0 ? this.#plan.splice(take, 1)[0] : undefined;
    if (m?.kind === "error") throw new KebHttpError({ status: 503, bodyExcerpt: "injected", url: "memory:" });
    if (m?.kind === "delete" || m?.kind === "balanced") {
      // Rows of this very query, before this page: the rows after them slide one page back.
      const first = await this.#honest.listPage({ ...params, page: 1 });
      for (const r of first.data.slice(0, m.n)) this.#fleet.delete(r.instanceID);
    }
    if (m?.kind === "insert" || m?.kind === "balanced") {
      for (const c of this.#fleet.create(m.n)) this.#fleet.fail(c.instanceID, "provision");
    }
    const answer = await this.#honest.listPage(params);
    if (!m) return answer;
    switch (m.kind) {
      case "short":
        return { ...answer, data: answer.data.slice(m.n), count: Math.max(0, answer.count - m.n) };
      case "extra": {
        const other = await this.#honest.listPage({ ...params, page: page + 1 });
        return { ...answer, data: [...answer.data, ...other.data.slice(0, m.n)] };
      }
      case "repeat":
        return { ...answer, data: [...answer.data, ...answer.data.slice(0, m.n)] };
      case "total+":
        return { ...answer, totalCount: answer.totalCount + m.n };
      case "total-":
        return { ...answer, totalCount: Math.max(0, answer.totalCount - m.n) };
      default:
        return answer;
    }
  }
}

/** The runtimes the failing audit flags in the fleet as it is now, from an honest, complete scan. */
async function flaggedNow(fleet: Fleet): Promise<Set<string>> {
  const s = await runAudit(
    {
      ports: {
        audits: testAudits({ client: new FleetSource(fleet) }),
        store: new MemoryAuditStore(),
        publisher: new MemoryPublisher(),
      },
    },
    { audit: "failing", dryRun: true, now: at(5) },
  );
  expect(s.complete).toBe(true);
  return new Set(s.transitions.map((t) => t.instanceID));
}

describe("no false resolve (property)", () => {
  it(
    `holds for any misbehaving KEB (${RUNS} cases; more with FLEET_AUDITOR_PROPERTY_RUNS)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 10_000 }),
          fc.integer({ min: 0, max: 8 }),
          fc.array(misbehaviour, { maxLength: 5 }),
          fc.option(fc.constantFrom("trial", "aws"), { nil: undefined }),
          async (seed, recover, plan, plan_filter) => {
            const fleet = new Fleet(generateFleet({ size: 360, seed, flagged: 220 }), { seed });
            const store = new MemoryAuditStore();
            const deps: AuditRunDeps = {
              ports: {
                audits: testAudits(),
                store,
                publisher: new MemoryPublisher(),
                reports: new MemoryReportStore(),
              },
              hooks: { clock: () => new Date(at(0)) },
            };
            const first = await runAudit(
              withDeps(deps, { ports: { audits: testAudits({ client: new FleetSource(fleet) }) } }),
              {
                audit: "failing",
                scheduledTime: at(0),
              },
            );
            expect(first.complete).toBe(true);
            fleet.mutate({ recover, fail: 2 });
            const second = await runAudit(
              withDeps(deps, {
                ports: { audits: testAudits({ client: new MisbehavingSource(fleet, plan) }) },
                hooks: { clock: () => new Date(at(1)) },
              }),
              {
                audit: "failing",
                scheduledTime: at(1),
                ...(plan_filter ? { filters: { plans: [plan_filter] } } : {}),
              },
            );
            const resolved = second.transitions.filter((t) => t.kind === "resolved").map((t) => t.instanceID);
            if (!second.complete) expect(resolved).toEqual([]);
            const still = await flaggedNow(fleet);
            expect(resolved.filter((id) => still.has(id))).toEqual([]);
          },
        ),
        { numRuns: RUNS, seed: 20261130 },
      );
    },
    Math.max(60_000, RUNS * 1_000), // a hang guard, not a bar: cases run slower beside other files
  );
});
