import type { DigestMessage } from "@fleet-auditor/audit";
import { KebHttpError } from "@fleet-auditor/keb";
import { Fleet, generateFleet } from "@fleet-auditor/keb-kubeedge-sim";
import { HealthV1Schema } from "@fleet-auditor/render";
import { type AuditRunDeps, RunSummarySchema, runAudit } from "@fleet-auditor/use-cases";
import { beforeEach, describe, expect, it } from "vitest";
import {
  FleetSource,
  MemoryAuditStore,
  MemoryPublisher,
  MemoryReportStore,
} from "../../helpers/memory-ports.ts";
import { withDeps } from "../../helpers/run-deps.ts";
import { testAudits } from "../../helpers/test-audits.ts";

// The first scheduled run of an audit on a stage records today's backlog as a baseline and sends
// one short notice, instead of mailing, chatting and paging every finding at once.

const hour = (h: number): string => new Date(Date.UTC(2026, 10, 1, h)).toISOString();

// Hundreds flagged, with critical incidents among them (what the pager would have been paged for).
const BACKLOG = generateFleet({ size: 900, seed: 5, flagged: 640, expiredShare: 0 });
const QUIET = generateFleet({ size: 50, seed: 5, flagged: 0 });

let source: FleetSource;
let store: MemoryAuditStore;
let publisher: MemoryPublisher;
let reports: MemoryReportStore;
let deps: AuditRunDeps;

function stage(fleet: ReturnType<typeof generateFleet>, firstRun: "baseline" | "notify" = "baseline"): void {
  source = new FleetSource(new Fleet(structuredClone(fleet)));
  store = new MemoryAuditStore();
  publisher = new MemoryPublisher();
  reports = new MemoryReportStore();
  let n = 0;
  deps = {
    ports: { audits: testAudits({ client: source }), store, publisher, reports },
    // As deployed with every topic: incident messages (chat) and the pager's.
    settings: { firstRun, incidentMessages: { maxNew: 10 }, pagerMessages: true, landscape: "prod-eu" },
    hooks: { newId: () => `run-${++n}` },
  };
}

/** A run of the failing audit at hour `h`, scheduled unless `adHoc`. */
const failing = (h: number, extra: Record<string, unknown> = {}) =>
  runAudit(withDeps(deps, { hooks: { clock: () => new Date(hour(h)) } }), {
    audit: "failing",
    scheduledTime: hour(h),
    ...extra,
  });

const formats = (messages: readonly DigestMessage[]) => messages.map((m) => m.attributes.format ?? "digest");
const variants = (m: DigestMessage) =>
  JSON.parse(m.message) as { default: string; email: string; https: string };

beforeEach(() => stage(BACKLOG));

describe("the first scheduled run of an audit", () => {
  it("records the backlog as a baseline and sends one short notice: no digest of it, no message per incident, no page", async () => {
    const summary = await failing(0);
    expect(summary.flagged).toBeGreaterThan(300);
    expect(summary.baseline).toBe(true);
    expect(RunSummarySchema.parse(summary)).toEqual(summary);

    expect(publisher.published).toHaveLength(1);
    const [notice] = publisher.published as [DigestMessage];
    expect(formats(publisher.published)).toEqual(["health"]);
    expect(notice.attributes.kinds).toEqual(["baseline"]);
    expect(notice.attributes.severity).toBe("info");
    // To the topics that would have heard of the backlog, but the pager's.
    expect(notice.topics).toEqual(["alerts", "incidents"]);
    expect(notice.subject).toContain(`baseline: ${summary.flagged} already failing; see the report`);
    const { email } = variants(notice);
    expect(email).toContain(`${summary.flagged} already failing`);
    expect(email).toContain("fleet-auditor runs show run-1");
    expect(email.split("\n").length).toBeLessThan(12);
    const structured = HealthV1Schema.parse(JSON.parse(variants(notice).default));
    expect(structured.status).toBe("baseline");
    expect(structured.flagged?.reduce((n, s) => n + s.count, 0)).toBe(summary.flagged);

    expect(summary.notified).toMatchObject({ messages: 1, transitions: 0, failed: 0 });
    expect(summary.writes.snapshot).toBe(summary.flagged);
  });

  it("keeps every finding of the baseline in the run report", async () => {
    const summary = await failing(0);
    const report = await reports.loadReport(summary.runId);
    expect(report?.transitions).toHaveLength(summary.flagged);
    expect(new Set(report?.transitions.map((t) => t.kind))).toEqual(new Set(["firing"]));
    expect(summary.report).toEqual({ stored: true });
  });

  it("leaves the next run quiet: the backlog is the snapshot now, and only news is told", async () => {
    await failing(0);
    const next = await failing(1);
    expect(next.baseline).toBeUndefined();
    expect(next.transitions).toEqual([]);
    expect(publisher.published).toHaveLength(1);

    // A runtime that fails after the baseline is told as usual, in the digest and the chat.
    const healthy = source.fleet
      .all()
      .find((i) => i.active && !i.deletedAt && i.operations.every((o) => o.state === "succeeded"));
    if (!healthy) throw new Error("fixture has no healthy runtime");
    source.fleet.fail(healthy.instanceID);
    const after = await failing(2);
    expect(after.transitions.map((t) => [t.kind, t.instanceID])).toEqual([["firing", healthy.instanceID]]);
    expect(formats(publisher.published.slice(1))).toContain("digest");
  });

  it("baselines once on a fleet with nothing flagged, then tells the first failure", async () => {
    stage(QUIET);
    const first = await failing(0);
    expect(first.baseline).toBe(true);
    expect(variants(publisher.published[0] as DigestMessage).email).toContain("0 already failing");
    const id = source.fleet.all()[0]?.instanceID ?? "";
    source.fleet.fail(id);
    const second = await failing(1);
    expect(second.baseline).toBeUndefined();
    expect(second.transitions.map((t) => t.kind)).toEqual(["firing"]);
    expect(formats(publisher.published.slice(1))).toContain("digest");
  });

  it("tells the backlog when the stage says notify", async () => {
    stage(BACKLOG, "notify");
    const summary = await failing(0);
    expect(summary.baseline).toBeUndefined();
    expect(formats(publisher.published)).toContain("digest");
    expect(formats(publisher.published)).toContain("incident");
    expect(summary.notified.transitions).toBe(summary.flagged);
  });

  it("does not baseline an ad-hoc run: someone asked to see the fleet, and notify=false stays the manual baseline", async () => {
    const adHoc = await runAudit(withDeps(deps, { hooks: { clock: () => new Date(hour(0)) } }), {
      audit: "failing",
    });
    expect(adHoc.baseline).toBeUndefined();
    expect(formats(publisher.published)).toContain("digest");
  });

  it("baselines again next time when the notice could not be published, committing nothing", async () => {
    publisher.refuse = () => true;
    const refused = await failing(0);
    expect(refused.notified.failed).toBeGreaterThan(0);
    expect(refused.writes.snapshot).toBe(0);
    publisher.refuse = () => false;
    const again = await failing(1);
    expect(again.baseline).toBe(true);
    expect(formats(publisher.published)).toEqual(["health"]);
  });

  it("waits for a complete scan: an incomplete first run commits nothing and the next one baselines", async () => {
    source.beforePage = (params) => {
      if ((params.page ?? 1) > 1)
        throw new KebHttpError({ status: 503, bodyExcerpt: "busy", url: "memory:" });
    };
    const blind = await failing(0);
    expect(blind.complete).toBe(false);
    expect(blind.flagged).toBeGreaterThan(0);
    expect(blind.baseline).toBeUndefined();
    expect(store.snapshots.get("failing")?.size ?? 0).toBe(0);
    expect(store.ledger.size).toBe(0);
    expect(publisher.published).toEqual([]);
    source.beforePage = undefined;
    const next = await failing(1);
    expect(next.baseline).toBe(true);
  });
});
