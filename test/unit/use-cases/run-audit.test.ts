import { KebHttpError, type ListParameters, type RuntimeSource, type RuntimesPage } from "@fleet-auditor/keb";
import { failingAudit, type KebAuditDefinition, KebSource } from "@fleet-auditor/keb-audits";
import { Fleet, generateFleet } from "@fleet-auditor/keb-kubeedge-sim";
import { LeaseLostError } from "@fleet-auditor/store";
import {
  AuditRegistry,
  type AuditRunDeps,
  LEDGER_TRANSITIONS,
  RunSummarySchema,
  runAudit,
} from "@fleet-auditor/use-cases";
import { beforeEach, describe, expect, it } from "vitest";
import {
  FleetSource,
  MemoryAuditStore,
  MemoryPublisher,
  MemoryReportStore,
  MemorySilences,
} from "../../helpers/memory-ports.ts";
import { withDeps } from "../../helpers/run-deps.ts";
import { testAudits } from "../../helpers/test-audits.ts";

// Every branch of runAudit on in-memory ports, no server. The invariants against real servers stay
// in test/integration/use-cases/run-audit.test.ts.

const hour = (h: number): string => new Date(Date.UTC(2026, 10, 1, h)).toISOString();

let source: FleetSource;
let store: MemoryAuditStore;
let publisher: MemoryPublisher;
let silences: MemorySilences;
let reports: MemoryReportStore;
let ids: string[];
let deps: AuditRunDeps;

// Generated once; each test gets its own copy to change. A fleet of tens for most tests: 24
// flagged of 40, with trial and other plans, error and failed states, and a critical incident of
// several runtimes.
const FLEET = generateFleet({ size: 40, seed: 7, flagged: 24 });
// The paging tests need the failing audit's first query to span two pages, and runAudit asks
// for KEB's largest page (100): 132 flagged of 145, none expired, give it 105 rows.
const PAGED = generateFleet({ size: 145, seed: 7, flagged: 132, expiredShare: 0 });
// A run larger than the ledger keeps (LEDGER_TRANSITIONS, 500) and than a digest names: 540
// transitions.
const LARGE = generateFleet({ size: 560, seed: 7, flagged: 540, expiredShare: 0 });

beforeEach(() => {
  source = new FleetSource(new Fleet(structuredClone(FLEET)));
  store = new MemoryAuditStore();
  publisher = new MemoryPublisher();
  silences = new MemorySilences();
  reports = new MemoryReportStore();
  let n = 0;
  ids = [];
  deps = {
    ports: { audits: testAudits({ client: source }), store, publisher, silences, reports },
    hooks: {
      clock: () => new Date(hour(0)),
      newId: () => {
        ids.push(`run-${++n}`);
        return `run-${n}`;
      },
    },
  };
});

/**
 * Every page waits until the run aborts its listing (and then fails as an aborted request does);
 * returns whether a page saw the abort. A run that never aborted it would hang.
 */
function listingThatWaitsForAbort(): () => boolean {
  let aborted = false;
  source.listPage = (_params: ListParameters, options?: Parameters<RuntimeSource["listPage"]>[1]) =>
    new Promise<RuntimesPage>((_resolve, reject) => {
      const signal = options?.signal;
      const stop = (): void => {
        aborted = true;
        reject(signal?.reason ?? new Error("aborted"));
      };
      if (signal?.aborted) stop();
      else signal?.addEventListener("abort", stop, { once: true });
    });
  return () => aborted;
}

/** A scheduled run of the failing audit at hour `h`, the clock reading that hour. */
const failing = (h: number, extra: Record<string, unknown> = {}) =>
  runAudit(withDeps(deps, { hooks: { clock: () => new Date(hour(h)) } }), {
    audit: "failing",
    scheduledTime: hour(h),
    ...extra,
  });

/** What the pager heard of one incident, in order: each message's status (it reads the structured form). */
const pagerHeard = (key: string): { key: string; status: string }[] =>
  publisher.published
    .filter((m) => m.topics?.includes("critical"))
    .map((m) => JSON.parse(JSON.parse(m.message).default).incident as { key: string; status: string })
    .filter((incident) => incident.key === key);

/** `failing`, with the pager's messages on (as with a critical topic). */
const failingPaged = (h: number) =>
  runAudit(withDeps(deps, { settings: { pagerMessages: true }, hooks: { clock: () => new Date(hour(h)) } }), {
    audit: "failing",
    scheduledTime: hour(h),
  });

/** How many transitions the `i`th published digest named or counted. */
const publisherTransitions = (i: number): number => {
  const m = publisher.published[i];
  return (m?.transitions.length ?? 0) + (m?.omitted.length ?? 0);
};

const healthyId = (): string => {
  const healthy = source.fleet
    .all()
    .find((i) => i.active && !i.deletedAt && i.operations.every((o) => o.state === "succeeded"));
  if (!healthy) throw new Error("fixture has no healthy runtime");
  return healthy.instanceID;
};

describe("runAudit: recorded run", () => {
  it("returns the recorded summary of a scheduled time as duplicate, without a lease or a message", async () => {
    const first = await failing(0);
    const published = publisher.published.length;
    store.leases.set("failing", { owner: "someone-else", expiresAtMs: Date.parse(hour(5)) });
    const again = await failing(0);
    expect(again).toEqual({ ...first, status: "duplicate" });
    expect(publisher.published).toHaveLength(published);
    expect(store.leases.get("failing")?.owner).toBe("someone-else");
  });

  it("aborts the listing it began beside the ledger's look when the scheduled time is recorded", async () => {
    await failing(0);
    const aborted = listingThatWaitsForAbort();
    const again = await failing(0);
    expect(again.status).toBe("duplicate");
    expect(aborted()).toBe(true);
  });

  it("leaves the lease alone on a duplicate: a late second delivery of one hour cannot make the next hour's run stand back", async () => {
    await failing(0);
    const [late, next] = await Promise.all([failing(0), failing(1)]);
    expect(late.status).toBe("duplicate");
    expect(next.status).toBe("completed");
  });

  it("ends a second delivery as a duplicate, telling nothing, when the first run recorded just after it asked the ledger", async () => {
    await failing(0);
    const published = publisher.published.length;
    // The first ledger answer is from before the first run recorded; the lease was released since.
    const findRun = store.findRun.bind(store);
    let asked = 0;
    store.findRun = async (...args) => (asked++ === 0 ? undefined : findRun(...args));
    const again = await failing(0);
    expect(again.status).toBe("duplicate");
    expect(asked).toBe(2);
    expect(publisher.published).toHaveLength(published);
    expect(store.leases.get("failing")).toBeUndefined();
  });

  it("does not look the ledger up for an ad-hoc run or a dry run", async () => {
    await failing(0);
    const dry = await failing(0, { dryRun: true });
    expect(dry.status).toBe("completed");
    const adhoc = await runAudit(deps, { audit: "failing" });
    expect(adhoc.status).toBe("completed");
    expect([...store.ledger.keys()].filter((k) => k.startsWith("failing|adhoc:"))).toHaveLength(1);
  });
});

describe("runAudit: the summary's contract", () => {
  it("returns summaries its published schema takes, field for field: a first run, a steady one, a duplicate and a skipped one", async () => {
    const summaries = [await failing(0), await failing(1), await failing(1)];
    store.leases.set("failing", { owner: "other", expiresAtMs: Date.parse(hour(2)) + 60_000 });
    summaries.push(await failing(2));
    expect(summaries.map((s) => s.status)).toEqual(["completed", "completed", "duplicate", "skipped"]);
    expect(summaries[0]?.transitions.length).toBeGreaterThan(0);
    // Strict: a field the schema (schemas/fleet-auditor.run-summary.v1.schema.json) lacks fails.
    for (const s of summaries) expect(RunSummarySchema.parse(JSON.parse(JSON.stringify(s)))).toEqual(s);
  });
});

describe("runAudit: lease", () => {
  it("stands back as skipped while another run holds the lease, and leaves that lease alone", async () => {
    store.leases.set("failing", { owner: "other", expiresAtMs: Date.parse(hour(0)) + 60_000 });
    const s = await failing(0);
    expect(s).toMatchObject({
      status: "skipped",
      complete: false,
      incompleteReason: "another run of this audit was in progress",
      transitions: [],
      notified: { messages: 0, transitions: 0, failed: 0, suppressed: 0 },
    });
    expect(store.ledger.size).toBe(0);
    expect(store.snapshots.get("failing")).toBeUndefined();
    expect(publisher.published).toEqual([]);
    expect(store.leases.get("failing")?.owner).toBe("other");
  });

  it("aborts the listing it began beside the lease's take when the lease is refused, and writes nothing", async () => {
    store.leases.set("failing", { owner: "other", expiresAtMs: Date.parse(hour(0)) + 60_000 });
    const aborted = listingThatWaitsForAbort();
    const s = await failing(0);
    expect(s.status).toBe("skipped");
    expect(aborted()).toBe(true);
    expect(store.ledger.size).toBe(0);
    expect(store.health.size).toBe(0);
    expect(publisher.published).toEqual([]);
  });

  it("tells no 'scan incomplete' of a listing it aborted because the run stood back; one cut short by KEB it does", async () => {
    const warnings: string[] = [];
    const log = { info: () => undefined, warn: (message: string) => void warnings.push(message) };
    const logged = withDeps(deps, { ports: { audits: testAudits({ client: source, log }) } });
    store.leases.set("failing", { owner: "other", expiresAtMs: Date.parse(hour(0)) + 60_000 });
    const aborted = listingThatWaitsForAbort();
    expect((await runAudit(logged, { audit: "failing", scheduledTime: hour(0) })).status).toBe("skipped");
    expect(aborted()).toBe(true);
    expect(warnings).toEqual([]);
    // The same listing broken off by KEB (not by the run standing back) is told.
    store.leases.delete("failing");
    source.listPage = () => Promise.reject(new Error("socket hang up"));
    expect((await runAudit(logged, { audit: "failing", scheduledTime: hour(1) })).complete).toBe(false);
    expect(warnings).toContain("scan incomplete: nothing will be resolved");
  });

  it("uses no page of the listing before the lease is held: a run whose lease take fails throws, having aborted it", async () => {
    store.acquireLease = async () => {
      throw new Error("the store is unreachable");
    };
    const aborted = listingThatWaitsForAbort();
    await expect(failing(0)).rejects.toThrow("the store is unreachable");
    expect(aborted()).toBe(true);
    expect(store.snapshots.get("failing")).toBeUndefined();
    expect(publisher.published).toEqual([]);
  });

  it("stops the listing when a store read beside it fails once the lease is held, before the run throws", async () => {
    store.loadSnapshot = async () => {
      throw new Error("the snapshot is unreadable");
    };
    const aborted = listingThatWaitsForAbort();
    await expect(failing(0)).rejects.toThrow("the snapshot is unreadable");
    expect(aborted()).toBe(true);
    expect(store.leases.has("failing")).toBe(false);
  });

  it("begins a source that cannot read before the lease only once it is held: a skipped run never reads it", async () => {
    store.leases.set("failing", { owner: "other", expiresAtMs: Date.parse(hour(0)) + 60_000 });
    const plugin = deps.ports.audits.named("failing");
    let reads = 0;
    const audits = {
      ...deps.ports.audits,
      named: (name: string) => {
        const p = deps.ports.audits.named(name);
        return {
          ...p,
          source: () => {
            const real = p.source();
            return {
              filterable: real.filterable,
              listedWhat: real.listedWhat,
              readsBeforeLease: false,
              ...(real.covers ? { covers: real.covers.bind(real) } : {}),
              ...(real.confirmAbsent ? { confirmAbsent: real.confirmAbsent.bind(real) } : {}),
              read: (run: Parameters<typeof real.read>[0]) => {
                reads++;
                return real.read(run);
              },
            };
          },
        };
      },
    } as typeof deps.ports.audits;
    expect(plugin.source().readsBeforeLease).toBe(true);
    const late = () =>
      runAudit(withDeps(deps, { ports: { audits } }), { audit: "failing", scheduledTime: hour(0) });
    expect((await late()).status).toBe("skipped");
    expect(reads).toBe(0);
    store.leases.delete("failing");
    expect((await late()).status).toBe("completed");
    expect(reads).toBe(1);
  });

  it("takes over a lease that expired (a crashed run) and releases it at the end", async () => {
    store.leases.set("failing", { owner: "crashed", expiresAtMs: Date.parse(hour(0)) - 1 });
    const s = await failing(0);
    expect(s.status).toBe("completed");
    expect(store.leases.has("failing")).toBe(false);
  });

  it("commits nothing and records nothing when the lease was lost before the commit", async () => {
    publisher.refuse = () => {
      // Another run took over while this one was publishing.
      store.leases.set("failing", { owner: "thief", expiresAtMs: Date.parse(hour(1)) });
      return false;
    };
    await expect(failing(0)).rejects.toBeInstanceOf(LeaseLostError);
    expect(store.snapshots.get("failing")).toBeUndefined();
    expect(store.ledger.size).toBe(0);
    // The thief's lease is not released by the loser.
    expect(store.leases.get("failing")?.owner).toBe("thief");
  });

  it("publishes nothing when the lease was lost before publishing", async () => {
    const loadHealth = store.loadHealth.bind(store);
    store.loadHealth = async (audit) => {
      // Another run took over while this one was scanning (its state loads beside the scan).
      store.leases.set("failing", { owner: "thief", expiresAtMs: Date.parse(hour(1)) });
      return loadHealth(audit);
    };
    await expect(failing(0)).rejects.toBeInstanceOf(LeaseLostError);
    expect(publisher.published).toEqual([]);
    expect(store.publishing.size).toBe(0);
  });

  it("a digest after a run interrupted between publish and commit says it may repeat that run's message", async () => {
    const commit = store.commit.bind(store);
    store.commit = async () => {
      throw new Error("killed");
    };
    await expect(failing(0)).rejects.toThrow("killed");
    expect(publisher.published).toHaveLength(1);
    store.commit = commit;
    const retry = await failing(0);
    expect(retry.repeats).toBe("run-1");
    expect(retry.transitions).toHaveLength(publisherTransitions(0));
    const message = JSON.parse(publisher.published[1]?.message ?? "{}");
    expect(message.email).toContain(
      "Run run-1 was interrupted after publishing: some of this may repeat its message.",
    );
    expect(JSON.parse(message.https).metadata.additionalContext.repeats).toBe("run-1");
    // Once committed, the note is gone: the next run's digest does not say it.
    expect(store.publishing.size).toBe(0);
    source.fleet.mutate({ fail: 2 });
    const next = await failing(1);
    expect(next.repeats).toBeUndefined();
    expect(JSON.parse(publisher.published[2]?.message ?? "{}").email).not.toContain("interrupted");
  });

  it("releases the lease when the scan throws", async () => {
    const broken: KebAuditDefinition = {
      ...failingAudit,
      name: "broken",
      description: "a definition whose query KEB would misread",
      queries: [{ states: ["deprovisioned"] }],
      classify: () => undefined,
    };
    await expect(
      runAudit(
        withDeps(deps, {
          ports: {
            audits: new AuditRegistry([
              { audit: broken, source: () => new KebSource({ client: source, audit: broken }) },
            ]),
          },
        }),
        { audit: "broken" },
      ),
    ).rejects.toThrow(/deprovisioned/);
    expect(store.leases.size).toBe(0);
  });
});

describe("runAudit: scan", () => {
  beforeEach(() => source.fleet.reset(structuredClone(PAGED)));

  it("lists every page of both queries once when nothing moves", async () => {
    const s = await failing(0);
    expect(s.complete).toBe(true);
    expect(s.rescans).toBeUndefined();
    expect(s.queries.map((q) => q.query)).toEqual([
      "state=failed&state=error",
      "state=deprovisionincomplete",
    ]);
    expect(s.queries[0]?.pages).toBe(2);
    expect(s.flagged).toBe(s.queries.reduce((n, q) => n + q.listed, 0));
  });

  it("scans once more when the inventory moved under the paging, and completes", async () => {
    const moved = healthyId();
    let once = true;
    source.beforePage = (params) => {
      // Between page 1 and page 2 of the first query, a runtime fails: totalCount drifts.
      if (once && params.page === 2) source.fleet.fail(moved, "update");
      once &&= params.page !== 2;
    };
    const s = await failing(0);
    expect(s.rescans).toBe(1);
    expect(s.complete).toBe(true);
    expect(s.transitions.map((t) => t.instanceID)).toContain(moved);
  });

  it("rescans only once: an inventory still moving leaves the run incomplete, resolving nothing", async () => {
    await failing(0);
    const recovered = firstFiring();
    source.fleet.recover(recovered);
    let moving = healthyId();
    source.beforePage = (params) => {
      if (params.page === 2) {
        source.fleet.fail(moving, "update");
        moving = healthyId();
      }
    };
    const s = await failing(1);
    expect(s.rescans).toBe(1);
    expect(s.complete).toBe(false);
    expect(s.incompleteReason).toMatch(/^state=failed&state=error: /);
    expect(s.transitions.filter((t) => t.kind === "resolved")).toEqual([]);
    expect(store.snapshots.get("failing")?.has(recovered)).toBe(true);
  });

  it("does not rescan after a failed request, and resolves nothing", async () => {
    await failing(0);
    const recovered = firstFiring();
    source.fleet.recover(recovered);
    const before = source.requests.length;
    source.beforePage = (params) => {
      if (params.page === 2)
        throw new KebHttpError({ status: 503, bodyExcerpt: "no healthy upstream", url: "memory:" });
    };
    const s = await failing(1);
    expect(s.rescans).toBeUndefined();
    expect(s.complete).toBe(false);
    expect(s.incompleteReason).toMatch(/503/);
    expect(s.transitions.filter((t) => t.kind === "resolved")).toEqual([]);
    expect(store.snapshots.get("failing")?.has(recovered)).toBe(true);
    // One pass: page 1 and 2 of the first query, page 1 of the second.
    expect(source.requests.length - before).toBe(3);
  });
});

describe("runAudit: times far from the clock", () => {
  it("refuses a now or scheduled time days from the clock unless the run is a dry run", async () => {
    await expect(runAudit(deps, { audit: "failing", now: "2100-01-01T00:00:00Z" })).rejects.toThrow(
      /invalid input: now: 2100-01-01T00:00:00Z is \d+ h from the clock \(at most 48 h unless dryRun\)/,
    );
    await expect(runAudit(deps, { audit: "failing", scheduledTime: "0000-01-01T00:00:00Z" })).rejects.toThrow(
      /scheduledTime: /,
    );
    expect(store.leases.size + store.ledger.size + publisher.published.length).toBe(0);
    const dry = await runAudit(deps, { audit: "failing", now: "2100-01-01T00:00:00Z", dryRun: true });
    expect(dry.dryRun).toBe(true);
    // A scheduler retry a day late is normal.
    const late = await runAudit(withDeps(deps, { hooks: { clock: () => new Date(hour(25)) } }), {
      audit: "failing",
      scheduledTime: hour(0),
    });
    expect(late.status).toBe("completed");
  });
});

describe("runAudit: no false resolve", () => {
  beforeEach(() => source.fleet.reset(structuredClone(PAGED)));

  it("does not resolve a runtime the paging skipped when a deletion and an insertion balance between page reads", async () => {
    await failing(0);
    const flaggedNow = async (): Promise<Set<string>> => {
      const honest = await runAudit(
        withDeps(deps, {
          ports: {
            audits: testAudits({ client: new FleetSource(source.fleet) }),
            store: new MemoryAuditStore(),
            reports: undefined,
          },
        }),
        { audit: "failing", dryRun: true },
      );
      return new Set(honest.transitions.map((t) => t.instanceID));
    };
    // Between page 1 and page 2 of state=failed&state=error: a row of page 1 leaves, a new failed
    // runtime arrives at the end. totalCount is unchanged and no row is seen twice, but the first
    // row of page 2 slid onto page 1, which was already read.
    const page1 = await new FleetSource(source.fleet).listPage({
      states: ["failed", "error"],
      page: 1,
      pageSize: 100,
    });
    const onPage1 = page1.data[0];
    let once = true;
    source.beforePage = (params) => {
      if (!(once && params.page === 2 && params.states?.includes("failed"))) return;
      once = false;
      source.fleet.delete(onPage1?.instanceID as string);
      const [created] = source.fleet.create(1);
      source.fleet.fail(created?.instanceID as string, "provision");
    };
    const s = await failing(1);
    source.beforePage = undefined;
    const still = await flaggedNow();
    const falselyResolved = s.transitions.filter((t) => t.kind === "resolved" && still.has(t.instanceID));
    expect(falselyResolved).toEqual([]);
    expect(s.transitions.filter((t) => t.kind === "resolved")).toEqual([]);
    // The row deleted after page 1 was read resolves on the next run, as no longer listed.
    const next = await failing(2);
    expect(next.transitions.filter((t) => t.kind === "resolved").map((t) => t.instanceID)).toEqual([
      onPage1?.instanceID,
    ]);
    expect(reports.reports.get(next.runId)?.transitions.find((t) => t.kind === "resolved")?.ending).toBe(
      "no longer listed",
    );
  });
});

describe("runAudit: filters", () => {
  it("resolves nothing outside a filtered run's filter, and keeps those snapshot entries", async () => {
    const first = await failing(0);
    const trial = first.transitions.filter(
      (t) => source.fleet.get(t.instanceID)?.servicePlanName === "trial",
    );
    const others = first.transitions.length - trial.length;
    expect(trial.length).toBeGreaterThan(0);
    expect(others).toBeGreaterThan(0);
    const filtered = await failing(1, { filters: { plans: ["trial"] } });
    expect(filtered.complete).toBe(true);
    expect(filtered.transitions.filter((t) => t.kind === "resolved")).toEqual([]);
    expect(store.snapshots.get("failing")?.size).toBe(first.transitions.length);
    // The next unfiltered run fires nothing again.
    const next = await failing(2);
    expect(next.transitions).toEqual([]);
  });

  it("still resolves what the filter covers", async () => {
    await failing(0);
    const trialFiring = [...(store.snapshots.get("failing")?.values() ?? [])].find(
      (e) => e.finding.labels.plan === "trial" && e.finding.labels.state === "error",
    );
    source.fleet.recover(trialFiring?.key as string);
    const filtered = await failing(1, { filters: { plans: ["trial"] } });
    expect(filtered.transitions.map((t) => [t.kind, t.instanceID])).toEqual([["resolved", trialFiring?.key]]);
  });
});

describe("runAudit: plan, dry run and baseline", () => {
  it("a dry run previews the digests and takes no lease, publishes, writes or records nothing", async () => {
    store.leases.set("failing", { owner: "other", expiresAtMs: Date.parse(hour(5)) });
    const dry = await failing(0, { dryRun: true });
    expect(dry.dryRun).toBe(true);
    expect(dry.transitions.length).toBeGreaterThan(0);
    expect(dry.preview?.[0]?.subject).toMatch(/: new|new runtime/);
    expect(dry.notified).toEqual({ messages: 0, transitions: 0, failed: 0, suppressed: 0 });
    expect(dry.writes).toEqual({ snapshot: 0, deleted: 0 });
    expect(publisher.published).toEqual([]);
    expect(store.itemWrites).toEqual({ put: 0, deleted: 0 });
    expect(store.ledger.size).toBe(0);
  });

  it("a baseline remembers every transition as told without publishing, so the next run is quiet", async () => {
    const baseline = await failing(0, { notify: false });
    expect(baseline.transitions.length).toBeGreaterThan(0);
    expect(baseline.notified).toMatchObject({ messages: 0, transitions: 0, failed: 0 });
    expect(baseline.writes.snapshot).toBe(baseline.transitions.length);
    expect(publisher.published).toEqual([]);
    const next = await failing(1);
    expect(next.transitions).toEqual([]);
  });

  it("a steady run writes no snapshot item and sends nothing", async () => {
    await failing(0);
    const writes = { ...store.itemWrites };
    const sent = publisher.published.length;
    const steady = await failing(1);
    expect(steady.transitions).toEqual([]);
    expect(steady.writes).toEqual({ snapshot: 0, deleted: 0 });
    expect(store.itemWrites).toEqual(writes);
    expect(publisher.published).toHaveLength(sent);
  });
});

describe("runAudit: publish, commit and record", () => {
  it("publishes one digest, commits its writes and records the run", async () => {
    const s = await failing(0);
    expect(publisher.published).toHaveLength(1);
    expect(s.notified).toMatchObject({ messages: 1, transitions: s.transitions.length, failed: 0 });
    expect(store.snapshots.get("failing")?.size).toBe(s.transitions.length);
    expect(store.ledger.get(`failing|sched:${hour(0)}`)?.summary).toEqual(s);
  });

  it("a refused publish is not committed or recorded, and the next run sends it again", async () => {
    publisher.refuse = () => true;
    const failed = await failing(0);
    expect(failed.notified).toMatchObject({ messages: 0, transitions: 0, failed: failed.transitions.length });
    expect(store.snapshots.get("failing")).toBeUndefined();
    expect(store.ledger.size).toBe(0);
    publisher.refuse = () => false;
    const retry = await failing(0);
    expect(retry.status).toBe("completed");
    expect(retry.transitions.map((t) => t.instanceID).sort()).toEqual(
      failed.transitions.map((t) => t.instanceID).sort(),
    );
    expect(publisher.published).toHaveLength(1);
  });

  it("counts as told only what the digest names when the report cannot be stored", async () => {
    // 540 transitions: the digest names some and counts the rest, which only the report lists.
    source.fleet.reset(structuredClone(LARGE));
    reports.refuse = true;
    const s = await failing(0);
    const [digest] = publisher.published;
    expect(digest?.omitted.length).toBeGreaterThan(0);
    expect(s.report).toEqual({ stored: false });
    expect(JSON.parse(digest?.message ?? "{}").email).toContain("The run report could not be stored");
    const named = new Set((digest?.transitions ?? []).map((ref) => s.transitions[ref]?.instanceID));
    expect(s.notified).toMatchObject({ messages: 1, transitions: named.size, failed: 0 });
    expect(store.snapshots.get("failing")?.size).toBe(named.size);
    // The counted ones come again, as new, once the report can be stored.
    reports.refuse = false;
    const next = await failing(1);
    expect(next.transitions).toHaveLength(s.transitions.length - named.size);
    expect(next.transitions.every((t) => t.kind === "firing" && !named.has(t.instanceID))).toBe(true);
    expect(next.report).toEqual({ stored: true });
  });

  it("keeps every transition in the run report, found by run ID", async () => {
    source.fleet.reset(structuredClone(LARGE));
    const s = await failing(0);
    const report = reports.reports.get(s.runId);
    expect(report?.transitions).toHaveLength(s.transitions.length);
    expect(report?.transitions.map((t) => t.key).sort()).toEqual(
      s.transitions.map((t) => t.instanceID).sort(),
    );
    // Since its onset (KEB's failing operation), first seen by this run.
    expect(report?.transitions[0]).toMatchObject({ kind: "firing", firstSeenAt: hour(0) });
    expect(report?.transitions[0]?.since.localeCompare(hour(0))).toBeLessThanOrEqual(0);
    expect(report?.transitions[0]?.finding.labels.shoot).toBeTruthy();
    expect(report?.summary).toMatchObject({ runId: s.runId, audit: "failing", complete: true });
  });

  it("counts a large incident's counted transitions as told once the report is stored, so the next run is quiet", async () => {
    source.fleet.reset(structuredClone(LARGE));
    const big = await failing(0);
    expect(big.transitions.length).toBeGreaterThan(LEDGER_TRANSITIONS);
    expect(publisher.published).toHaveLength(1);
    expect(publisher.published[0]?.omitted.length).toBeGreaterThan(0);
    expect(big.notified).toMatchObject({ messages: 1, transitions: big.transitions.length, failed: 0 });
    const record = store.ledger.get(`failing|sched:${hour(0)}`);
    expect(record?.summary.transitions).toHaveLength(LEDGER_TRANSITIONS);
    expect(record?.summary.transitionsOmitted).toBe(big.transitions.length - LEDGER_TRANSITIONS);
    const next = await failing(1);
    expect(next.transitions).toEqual([]);
  });

  it("keeps silenced transitions out of the digests, counts them suppressed and commits them", async () => {
    silences.silences.push({
      id: "s-1",
      match: [{ name: "state", op: "=", value: "error" }],
      startsAt: hour(0),
      endsAt: hour(10),
      createdBy: "ops",
      comment: "known",
    });
    const s = await failing(0);
    const silenced = s.transitions.filter((t) => t.silencedBy === "s-1");
    expect(silenced.length).toBeGreaterThan(0);
    expect(s.notified.suppressed).toBe(silenced.length);
    const listed = new Set(publisher.published.flatMap((m) => m.transitions));
    expect(listed.size).toBe(s.transitions.length - silenced.length);
    expect(store.snapshots.get("failing")?.size).toBe(s.transitions.length);
  });

  it("sends a critical incident's end to the pager while it is silenced, and again after the pager's topic refused it", async () => {
    const opened = await failingPaged(0);
    expect(opened.notified.failed).toBe(0);
    // The pager route pages one incident per audit episode: every critical runtime is in it.
    const firing = [...(store.snapshots.get("failing")?.values() ?? [])].filter((e) => e.routes?.pager);
    const key = firing[0]?.routes?.pager?.key as string;
    expect(key, "the fleet has a critical incident").toBeDefined();
    const members = firing.filter((e) => e.routes?.pager?.key === key).map((e) => e.key);
    // Silenced from here on, then its runtimes recover: the pager opened the alert before the
    // silence, so it must hear the end; the first time, its topic refuses the message.
    silences.silences.push({
      id: "s-all",
      match: [{ name: "state", op: "=~", value: ".*" }],
      startsAt: hour(1),
      endsAt: hour(10),
      createdBy: "ops",
      comment: "maintenance",
    });
    for (const id of members) source.fleet.recover(id);
    const pagerMessages = () => pagerHeard(key);
    publisher.refuse = (m) => m.topics?.includes("critical") ?? false;
    const refused = await failingPaged(1);
    expect(refused.notified.failed).toBeGreaterThan(0);
    expect(pagerMessages().map((i) => i.status)).toEqual(["firing"]);
    publisher.refuse = () => false;
    await failingPaged(2);
    expect(pagerMessages().map((i) => i.status)).toEqual(["firing", "resolved"]);
    // Told once: the next run is quiet.
    await failingPaged(3);
    expect(pagerMessages()).toHaveLength(2);
  });

  it("sends a critical incident's end to the pager again after a refusal when only its critical member's end is silenced", async () => {
    await failingPaged(0);
    const byIncident = new Map<string, string[]>();
    for (const e of store.snapshots.get("failing")?.values() ?? [])
      if (e.routes?.pager)
        byIncident.set(e.routes.pager.key, [...(byIncident.get(e.routes.pager.key) ?? []), e.key]);
    const [key, members] = [...byIncident].find(([, m]) => m.length >= 2) ?? [];
    expect(key, "the fleet has a critical incident of two or more").toBeDefined();
    const [a, b, ...others] = members as string[];
    // b turns a warning (its update fails), the others recover: a alone keeps it critical.
    source.fleet.fail(b as string, "update");
    for (const id of others) source.fleet.recover(id);
    await failingPaged(1);
    expect(pagerHeard(key as string).map((i) => i.status)).toEqual(["firing"]);
    // a alone is silenced; a and b are fixed in one run, whose message the pager's topic refuses.
    silences.silences.push({
      id: "s-a",
      match: [{ name: "instance", op: "=", value: a as string }],
      startsAt: hour(1),
      endsAt: hour(10),
      createdBy: "ops",
      comment: "maintenance on a",
    });
    source.fleet.recover(a as string);
    source.fleet.recover(b as string);
    publisher.refuse = (m) => m.topics?.includes("critical") ?? false;
    expect((await failingPaged(2)).notified.failed).toBeGreaterThan(0);
    // Neither end is committed: the next run sees the critical incident end again.
    expect(store.snapshots.get("failing")?.has(a as string)).toBe(true);
    publisher.refuse = () => false;
    await failingPaged(3);
    await failingPaged(4);
    expect(pagerHeard(key as string).map((i) => i.status)).toEqual(["firing", "resolved"]);
  });

  it("collapses every group when GROUP_COLLAPSE_AT is 0", async () => {
    await runAudit(withDeps(deps, { settings: { collapseAt: 0 } }), {
      audit: "failing",
      scheduledTime: hour(0),
    });
    const email = JSON.parse(publisher.published[0]?.message ?? "{}").email as string;
    expect(email).toMatch(/^\* \d+ runtimes /m);
    expect(email).not.toMatch(/^- \[/m);
  });

  it("measures the run's duration on the clock it was given", async () => {
    let t = Date.parse(hour(0));
    const clock = (): Date => {
      t += 250;
      return new Date(t);
    };
    const s = await runAudit(withDeps(deps, { hooks: { clock } }), { audit: "failing" });
    expect(s.durationMs).toBeGreaterThan(0);
    expect(s.durationMs % 250).toBe(0);
  });
});

describe("runAudit: resolutions and the auditor's health", () => {
  it("tells how each resolved runtime ended: its state now, or no longer listed", async () => {
    await failing(0);
    const [recovered, deleted] = [...(store.snapshots.get("failing")?.values() ?? [])]
      .filter((e) => e.finding.labels.state === "error")
      .map((e) => e.key);
    source.fleet.recover(recovered as string);
    source.fleet.delete(deleted as string);
    const s = await failing(1);
    const ending = (id: string) =>
      reports.reports.get(s.runId)?.transitions.find((t) => t.key === id)?.ending;
    expect(ending(recovered as string)).toBe("succeeded");
    expect(ending(deleted as string)).toBe("no longer listed");
    const email = JSON.parse(publisher.published.at(-1)?.message ?? "{}").email as string;
    // How long each lasted counts from its onset (its operation's failure), not from a run.
    expect(email).toMatch(/resolved after \d+[smhd][^:]*: .*now succeeded/);
    expect(email).toMatch(/resolved after \d+[smhd][^:]*: .*now no longer listed/);
  });

  const blind = (): void => {
    source.beforePage = () => {
      throw new KebHttpError({ status: 503, bodyExcerpt: "no healthy upstream", url: "memory:" });
    };
  };
  const notices = () =>
    publisher.published.filter((m) => m.attributes.kinds.some((k) => k === "degraded" || k === "recovered"));

  it("sends one degraded notice after three incomplete runs in a row, and one recovered when a complete run follows", async () => {
    await failing(0);
    blind();
    const runs = [await failing(1), await failing(2), await failing(3), await failing(4)];
    expect(runs.map((r) => r.health)).toEqual([
      { badRuns: 1, badSince: hour(1) },
      { badRuns: 2, badSince: hour(1) },
      { badRuns: 3, badSince: hour(1), notice: "degraded" },
      { badRuns: 4, badSince: hour(1) },
    ]);
    expect(notices()).toHaveLength(1);
    expect(notices()[0]?.attributes).toEqual({
      audit: "failing",
      severity: "warning",
      kinds: ["degraded"],
      format: "health",
    });
    expect(JSON.parse(notices()[0]?.message ?? "{}").email).toMatch(
      /DEGRADED: 3 runs in a row .*\nLatest reason: .*503/s,
    );
    source.beforePage = undefined;
    const back = await failing(5);
    expect(back.health).toEqual({ badRuns: 0, badSince: null, notice: "recovered" });
    expect(notices().map((m) => m.attributes.kinds[0])).toEqual(["degraded", "recovered"]);
    expect(notices()[1]?.attributes.severity).toBe("info");
    // The next good run owes nothing and writes no health item.
    const quiet = await failing(6);
    expect(quiet.health).toEqual({ badRuns: 0, badSince: null });
    expect(notices()).toHaveLength(2);
  });

  it("counts a run that throws toward degraded", async () => {
    deps.settings = { ...deps.settings, degradedAfterRuns: 1 };
    publisher.refuse = (m) => {
      if (m.attributes.kinds.includes("degraded")) return false;
      store.leases.set("failing", { owner: "thief", expiresAtMs: Date.parse(hour(9)) });
      return false;
    };
    await expect(failing(0)).rejects.toBeInstanceOf(LeaseLostError);
    expect(store.health.get("failing")).toMatchObject({ badRuns: 1, degradedNotified: true });
    expect(notices()).toHaveLength(1);
    expect(JSON.parse(notices()[0]?.message ?? "{}").email).toMatch(/no longer holds the lease/);
  });

  it("sends a refused degraded notice again on the next bad run", async () => {
    deps.settings = { ...deps.settings, degradedAfterRuns: 1 };
    blind();
    publisher.refuse = () => true;
    const first = await failing(0);
    expect(first.health).toEqual({ badRuns: 1, badSince: hour(0) });
    publisher.refuse = () => false;
    const second = await failing(1);
    expect(second.health).toMatchObject({ badRuns: 2, notice: "degraded" });
    expect(notices()).toHaveLength(1);
  });
});

function firstFiring(): string {
  const [first] = [...(store.snapshots.get("failing")?.values() ?? [])].filter((e) => e.phase === "firing");
  if (!first) throw new Error("nothing firing");
  return first.key;
}
