import type { ListParameters, RuntimeSource, RuntimesPage } from "@fleet-auditor/keb";
import { Fleet, generateFleet } from "@fleet-auditor/keb-kubeedge-sim";
import { type AuditRunDeps, runAudit } from "@fleet-auditor/use-cases";
import { beforeEach, describe, expect, it } from "vitest";
import {
  FleetSource,
  MemoryAuditStore,
  MemoryPublisher,
  MemoryReportStore,
} from "../../helpers/memory-ports.ts";
import { withDeps } from "../../helpers/run-deps.ts";
import { testAudits } from "../../helpers/test-audits.ts";

// Before anything resolves, the runtimes the snapshot has and the scan did not list are looked
// up by ID. Only an answer about a runtime that was asked for may count.

const hour = (h: number): string => new Date(Date.UTC(2026, 10, 1, h)).toISOString();

/** KEB behind a gateway that answers an `instance_id` lookup as `answer` says. */
class LookupGateway implements RuntimeSource {
  answer: (params: ListParameters) => ListParameters = (p) => p;
  readonly inner: FleetSource;
  constructor(inner: FleetSource) {
    this.inner = inner;
  }
  listPage(params: ListParameters): Promise<RuntimesPage> {
    return this.inner.listPage(params.instanceIDs ? this.answer(params) : params);
  }
}

let fleet: Fleet;
let gateway: LookupGateway;
let publisher: MemoryPublisher;
let deps: AuditRunDeps;
let recovered: string;
let stillFailing: string;

beforeEach(async () => {
  fleet = new Fleet(generateFleet({ size: 60, seed: 5, flagged: 10 }));
  gateway = new LookupGateway(new FleetSource(fleet));
  publisher = new MemoryPublisher();
  deps = {
    ports: {
      audits: testAudits({ client: gateway }),
      store: new MemoryAuditStore(),
      publisher,
      reports: new MemoryReportStore(),
    },
  };
  const first = await run(0);
  const failing = first.transitions.map((t) => t.instanceID);
  [recovered, stillFailing] = failing as [string, string];
  fleet.recover(recovered);
});

const run = (h: number) =>
  runAudit(withDeps(deps, { hooks: { clock: () => new Date(hour(h)) } }), {
    audit: "failing",
    scheduledTime: hour(h),
  });

describe("the absence lookup", () => {
  it("resolves a runtime on an answer about it", async () => {
    const second = await run(1);
    expect(second.complete).toBe(true);
    expect(second.transitions).toEqual([
      expect.objectContaining({ kind: "resolved", instanceID: recovered }),
    ]);
  });

  it("makes the run incomplete when the answer is about another runtime: nothing resolves, nothing is told twice", async () => {
    gateway.answer = (p) => ({ ...p, instanceIDs: [stillFailing] });
    const published = publisher.published.length;
    const second = await run(1);
    expect(second.complete).toBe(false);
    expect(second.incompleteReason).toContain("1 runtime not asked for");
    expect(second.transitions).toEqual([]);
    expect(publisher.published).toHaveLength(published);
  });

  it("makes the run incomplete when a gateway drops instance_id and answers with the whole fleet", async () => {
    gateway.answer = ({ instanceIDs: _ignored, ...rest }) => rest;
    const second = await run(1);
    expect(second.complete).toBe(false);
    expect(second.incompleteReason).toMatch(/not asked for/);
    expect(second.transitions).toEqual([]);
  });
});
