import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { PublishCommand, SNSClient } from "@aws-sdk/client-sns";
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import type { RunReportStore } from "@fleet-auditor/audit";
import { KEB_AUDITS } from "@fleet-auditor/keb-audits";
import { generateFleet } from "@fleet-auditor/keb-kubeedge-sim";
import { SnsAlertPublisher } from "@fleet-auditor/notify";
import { HEALTH_RUNBOOK_DOC, HealthV1Schema } from "@fleet-auditor/render";
import {
  auditTableDefinition,
  DynamoAuditStore,
  DynamoReportStore,
  documentClient,
  ensureTable,
} from "@fleet-auditor/store";
import {
  type AuditRunDeps,
  inhibitRulesEnvSchema,
  LEDGER_TRANSITIONS,
  parseConfig,
  parseRunInput,
  RunInputError,
  runAudit,
  showRun,
} from "@fleet-auditor/use-cases";
import { mockClient } from "aws-sdk-client-mock";
import { beforeEach, describe, expect, it } from "vitest";
import { countRequests, sumOf } from "../../helpers/aws-requests.ts";
import { useDynamo } from "../../helpers/dynamo.ts";
import { useKebSimulator } from "../../helpers/keb.ts";
import { withDeps } from "../../helpers/run-deps.ts";
import { type Delivered, useSns } from "../../helpers/sns.ts";
import { testAudits } from "../../helpers/test-audits.ts";

const kit = useKebSimulator({ fleet: { size: 10, seed: 1 } });
const env = useDynamo([]);
const sns = useSns();

let tableNo = 0;
let deps: AuditRunDeps;
let ddbCalls: Map<string, number>;
let ddb: ReturnType<typeof documentClient>;
let tableName: string;
let drainAll: () => Promise<Delivered[]>;

beforeEach(async () => {
  kit.sim.faults.clear();
  kit.sim.fleet.reset(generateFleet({ size: 640, seed: 12, flagged: 60 }));
  const table = `audit-${++tableNo}`;
  const raw = new DynamoDBClient({
    endpoint: env.db.endpoint,
    region: "local",
    credentials: { accessKeyId: "l", secretAccessKey: "l" },
  });
  await ensureTable(raw, auditTableDefinition(table));
  const client = documentClient(raw);
  ddb = client;
  tableName = table;
  ddbCalls = countRequests(client);
  drainAll = await sns.subscriber(`all-${tableNo}`);
  deps = {
    ports: {
      audits: testAudits({ client: kit.client() }),
      store: new DynamoAuditStore({ client, tableName: table }),
      reports: new DynamoReportStore({ client, tableName: table }),
      publisher: new SnsAlertPublisher({ client: sns.sns, topicArn: sns.topicArn }),
    },
    // The scheduled times below are hours of 2026-11-01: the run's clock reads that day too.
    hooks: { clock: () => new Date(hour(0)) },
  };
});

const messagesOf = (delivered: Delivered[]) =>
  delivered.map((d) => ({
    subject: d.Subject,
    body: JSON.parse(d.Message) as { default: string; email: string; https: string },
  }));
const hour = (h: number) => new Date(Date.UTC(2026, 10, 1, h)).toISOString();

describe("runAudit end to end (KEB simulator, dynalite, fauxqs)", () => {
  it("fires every failing runtime on the first run, in one digest, and reports it", async () => {
    const summary = await runAudit(deps, { audit: "failing", scheduledTime: hour(0) });
    const flaggedInFleet = kit.sim.fleet.all().filter((i) => {
      const ops = i.operations;
      const last = ops.at(-1);
      return last?.state === "failed" || i.deletedAt !== undefined;
    }).length;
    expect(summary).toMatchObject({
      audit: "failing",
      status: "completed",
      complete: true,
      incompleteReason: null,
      dryRun: false,
    });
    expect(summary.queries.map((q) => q.query)).toEqual([
      "state=failed&state=error",
      "state=deprovisionincomplete",
    ]);
    expect(summary.flagged).toBeGreaterThan(10);
    expect(summary.flagged).toBeLessThanOrEqual(flaggedInFleet);
    expect(summary.transitions).toHaveLength(summary.flagged);
    expect(summary.transitions.every((t) => t.kind === "firing" && t.previousState === null)).toBe(true);
    expect(summary.notified).toMatchObject({ messages: 1, transitions: summary.flagged, failed: 0 });
    const [msg, ...more] = messagesOf(await drainAll());
    expect(more).toEqual([]);
    expect(msg?.subject).toMatch(/: \d+ new runtimes \| CRITICAL \| failing audit/);
    expect(msg?.body.email).toContain(`NEW (${summary.flagged})`);
    expect(JSON.parse(msg?.body.https ?? "{}")).toMatchObject({ version: "1.0", source: "custom" });
  });

  it("publishes nothing and writes no snapshot item when nothing changed", async () => {
    await runAudit(deps, { audit: "failing", scheduledTime: hour(0) });
    await drainAll();
    ddbCalls.clear();
    const steady = await runAudit(deps, { audit: "failing", scheduledTime: hour(1) });
    expect(steady.transitions).toEqual([]);
    expect(steady.writes).toEqual({ snapshot: 0, deleted: 0 });
    expect(await drainAll()).toEqual([]);
    // Only the lease, the ledger record and the lease release write.
    expect(sumOf(ddbCalls, /^(Put|Delete|Update|BatchWrite|TransactWrite)/)).toBeLessThanOrEqual(3);
    expect(sumOf(ddbCalls, /^BatchWrite/)).toBe(0);
  });

  it("reads no snapshot item in a new container when nothing changed, and the snapshot when something did", async () => {
    await runAudit(deps, { audit: "failing", scheduledTime: hour(0) });
    await drainAll();
    // Each run in a store of its own, as in a new Lambda container: it keeps nothing.
    const newContainer = (): AuditRunDeps => ({
      ...deps,
      ports: { ...deps.ports, store: new DynamoAuditStore({ client: ddb, tableName }) },
    });
    ddbCalls.clear();
    const steady = await runAudit(newContainer(), { audit: "failing", scheduledTime: hour(1) });
    expect(steady.transitions).toEqual([]);
    expect(sumOf(ddbCalls, /^Query/)).toBe(0);
    const healthy = kit.sim.fleet
      .all()
      .find((i) => i.active && !i.operations.some((o) => o.state === "failed") && !i.deletedAt);
    kit.sim.fleet.fail(healthy?.instanceID as string, "update");
    ddbCalls.clear();
    const moved = await runAudit(newContainer(), { audit: "failing", scheduledTime: hour(2) });
    expect(moved.transitions.map((t) => [t.kind, t.instanceID])).toEqual([["firing", healthy?.instanceID]]);
    expect(sumOf(ddbCalls, /^Query/)).toBeGreaterThan(0);
    ddbCalls.clear();
    const again = await runAudit(newContainer(), { audit: "failing", scheduledTime: hour(3) });
    expect(again.transitions).toEqual([]);
    expect(sumOf(ddbCalls, /^Query/)).toBe(0);
    expect(await drainAll()).toHaveLength(1);
  });

  it("reports runtimes that fail, change and recover between runs", async () => {
    const first = await runAudit(deps, { audit: "failing", scheduledTime: hour(0) });
    await drainAll();
    const firing = first.transitions.filter((t) => t.state === "error").map((t) => t.instanceID);
    const healthy = kit.sim.fleet
      .all()
      .find((i) => i.active && !i.operations.some((o) => o.state === "failed") && !i.deletedAt);
    kit.sim.fleet.recover(firing[0] as string);
    kit.sim.fleet.fail(firing[1] as string, "provision");
    kit.sim.fleet.fail(healthy?.instanceID as string, "update");
    const second = await runAudit(deps, { audit: "failing", scheduledTime: hour(1) });
    const byId = new Map(second.transitions.map((t) => [t.instanceID, t]));
    expect(byId.get(firing[0] as string)).toMatchObject({ kind: "resolved", state: "error" });
    expect(byId.get(firing[1] as string)).toMatchObject({
      kind: "changed",
      state: "failed",
      previousState: "error",
      severity: "critical",
    });
    expect(byId.get(healthy?.instanceID as string)).toMatchObject({ kind: "firing", state: "error" });
    expect(second.transitions).toHaveLength(3);
    const [msg] = messagesOf(await drainAll());
    expect(msg?.subject).toBe(
      "error (err_deprovisioning) in uksouth +2 more: 1 new runtime, 1 changed, 1 recovered | CRITICAL",
    );
  });

  it("holds back what a stage's inhibition rule names while its source fires, and tells it once the source resolves", async () => {
    // The stage's rule, as the deploy writes it: a runtime in error holds back the failed ones of its region.
    const rule = { sourceMatchers: ["state=error"], targetMatchers: ["state=failed"], equal: ["region"] };
    const grouping = parseConfig(inhibitRulesEnvSchema(KEB_AUDITS), {
      INHIBIT_RULES_FAILING: JSON.stringify([rule]),
    });
    const staged = withDeps(deps, { ports: { audits: testAudits({ client: kit.client(), grouping }) } });
    const first = await runAudit(staged, { audit: "failing", scheduledTime: hour(0) });
    const report = await deps.ports.reports?.loadReport(first.runId);
    const rows = report?.transitions ?? [];
    const regionOf = (t: (typeof rows)[number]): string => t.finding.labels.region ?? "";
    // The least key of the runtimes in error in each region: the one that holds its failed ones back.
    const source = new Map<string, string>();
    for (const t of [...rows].sort((a, b) => (a.key < b.key ? 1 : -1)))
      if (t.state === "error") source.set(regionOf(t), t.key);
    const held = rows.filter((t) => t.state === "failed" && source.has(regionOf(t)));
    expect(held.length).toBeGreaterThan(0);
    expect(rows.filter((t) => t.inhibitedBy).map((t) => [t.key, t.inhibitedBy])).toEqual(
      held.map((t) => [t.key, source.get(regionOf(t))]),
    );
    expect(first.notified).toMatchObject({
      inhibited: held.length,
      transitions: first.flagged - held.length,
    });
    // The digest names none of them.
    const [msg] = messagesOf(await drainAll());
    const named = (
      JSON.parse(msg?.body.default ?? "{}") as { transitions: Array<{ instanceID: string }> }
    ).transitions.map((t) => t.instanceID);
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((key) => held.some((t) => t.key === key))).toEqual([]);
    // Every runtime in error recovers: the failed ones they held back are told now, as firing.
    for (const t of rows) if (t.state === "error") kit.sim.fleet.recover(t.key);
    const second = await runAudit(staged, { audit: "failing", scheduledTime: hour(1) });
    const byId = new Map(second.transitions.map((t) => [t.instanceID, t]));
    for (const t of held) expect(byId.get(t.key)).toMatchObject({ kind: "firing", state: "failed" });
    expect(second.notified.inhibited).toBeUndefined();
  });

  it("audits expired runtimes with state=all and rates suspended ones info", async () => {
    const summary = await runAudit(deps, { audit: "expired", scheduledTime: hour(0) });
    expect(summary.queries.map((q) => q.query)).toEqual(["expired=true&state=all"]);
    const expected = kit.sim.fleet.all().filter((i) => i.expiredAt).length;
    expect(summary.flagged).toBe(expected);
    expect(new Set(summary.transitions.map((t) => t.severity))).toContain("info");
  });

  it("never loops on a runtime it cannot store: an instanceID over DynamoDB's key limit, a huge description", async () => {
    const flagged = kit.sim.fleet
      .all()
      .filter((i) => i.operations.at(-1)?.state === "failed" && !i.deletedAt);
    const [longId, longText] = flagged;
    (longId as { instanceID: string }).instanceID = `x${"0".repeat(1_100)}`;
    const op = longText?.operations.at(-1) as { description: string };
    op.description = "y".repeat(500_000);
    const first = await runAudit(deps, { audit: "failing", scheduledTime: hour(0) });
    expect(first.complete).toBe(true);
    expect(first.unstorable).toEqual([
      {
        instanceID: `x${"0".repeat(99)}…`,
        reason: "cannot be stored: its key is 1101 bytes; DynamoDB keys hold at most 1024",
      },
    ]);
    expect(first.notified.failed).toBe(0);
    expect(await drainAll()).toHaveLength(1);
    const again = await runAudit(deps, { audit: "failing", scheduledTime: hour(1) });
    expect(again.transitions).toEqual([]);
    expect(await drainAll()).toEqual([]);
  });

  it("publishes once for the same scheduled time run twice", async () => {
    const first = await runAudit(deps, { audit: "failing", scheduledTime: hour(0) });
    const again = await runAudit(deps, { audit: "failing", scheduledTime: "2026-11-01T00:00:00.000+00:00" });
    expect(again.status).toBe("duplicate");
    expect(again.runId).toBe(first.runId);
    expect(await drainAll()).toHaveLength(1);
  });

  it("stands back when another run holds the lease: the listing begun beside the lease's take is aborted, and nothing is written or told", async () => {
    const store = new DynamoAuditStore({ client: ddb, tableName });
    const until = new Date(Date.parse(hour(0)) + 600_000);
    expect(await store.acquireLease("failing", "other-run", new Date(hour(0)), until)).toBe(true);
    // Every page takes a minute: a run that waited for its listing would outlast the test's
    // timeout (the hang guard) and KEB's 30-second request timeout.
    kit.sim.faults.latencyMs = 60_000;
    ddbCalls.clear();
    const skipped = await runAudit(deps, { audit: "failing", scheduledTime: hour(0) });
    expect(skipped.status).toBe("skipped");
    expect(sumOf(ddbCalls, /^(Put|Delete|Update|BatchWrite|TransactWrite)/)).toBe(1);
    const items = await ddb.send(new ScanCommand({ TableName: tableName }));
    expect(items.Items?.map((i) => i.sk)).toEqual(["LEASE"]);
    expect(await store.describeLease("failing")).toEqual({
      owner: "other-run",
      expiresAtMs: until.getTime(),
    });
    expect(await drainAll()).toHaveLength(0);
  });

  it("publishes once when two invocations of one scheduled time overlap", async () => {
    kit.sim.faults.latencyMs = 30;
    const results = await Promise.all([
      runAudit(deps, { audit: "failing", scheduledTime: hour(0) }),
      runAudit(deps, { audit: "failing", scheduledTime: hour(0) }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["completed", "skipped"]);
    expect(await drainAll()).toHaveLength(1);
    const third = await runAudit(deps, { audit: "failing", scheduledTime: hour(0) });
    expect(third.status).toBe("duplicate");
  });

  it("sends one degraded notice after three blind runs and one recovered after the next complete run", async () => {
    await runAudit(deps, { audit: "failing", scheduledTime: hour(0) });
    await drainAll();
    kit.sim.faults.add({
      path: "/runtimes",
      times: Number.POSITIVE_INFINITY,
      action: { kind: "status", status: 503, body: "no healthy upstream" },
    });
    const at = (h: number) =>
      runAudit(withDeps(deps, { hooks: { clock: () => new Date(hour(h)) } }), {
        audit: "failing",
        scheduledTime: hour(h),
      });
    const blind = [];
    for (const h of [1, 2, 3, 4]) blind.push(await at(h));
    expect(blind.map((b) => b.health?.notice ?? null)).toEqual([null, null, "degraded", null]);
    const notices = messagesOf(await drainAll());
    expect(notices.map((n) => n.subject)).toEqual([
      `[fleet-auditor] failing audit DEGRADED since 2026-11-01 01:00 UTC`,
    ]);
    kit.sim.faults.clear();
    const back = await at(5);
    expect(back.health).toEqual({ badRuns: 0, badSince: null, notice: "recovered" });
    const recovered = messagesOf(await drainAll());
    expect(recovered.map((n) => n.subject)).toEqual(["[fleet-auditor] failing audit RECOVERED after 4h"]);
    // Programs (a pager) read the structured form: one episode key, opened and closed.
    const [degraded, ended] = [notices[0], recovered[0]].map((n) =>
      HealthV1Schema.parse(JSON.parse(n?.body.default ?? "")),
    );
    expect(degraded).toMatchObject({
      status: "degraded",
      since: hour(1),
      badRuns: 3,
      runbook: HEALTH_RUNBOOK_DOC,
    });
    expect(degraded?.reason).toMatch(/503/);
    expect(ended).toMatchObject({ status: "recovered", since: hour(1), badRuns: 4, key: degraded?.key });
  });

  it("resolves nothing and deletes nothing when the scan is incomplete, and says so", async () => {
    const first = await runAudit(deps, { audit: "failing", scheduledTime: hour(0) });
    await drainAll();
    for (const t of first.transitions) kit.sim.fleet.recover(t.instanceID);
    kit.sim.faults.add({
      path: "/runtimes",
      times: Number.POSITIVE_INFINITY,
      action: { kind: "status", status: 500, json: true, body: "db down" },
    });
    ddbCalls.clear();
    const broken = await runAudit(deps, { audit: "failing", scheduledTime: hour(1) });
    expect(broken.complete).toBe(false);
    expect(broken.incompleteReason).toMatch(/page 1 failed: .*HTTP 500: db down/);
    expect(broken.transitions).toEqual([]);
    expect(broken.writes).toEqual({ snapshot: 0, deleted: 0 });
    expect(sumOf(ddbCalls, /^Delete/)).toBe(1); // the lease release only
    expect(sumOf(ddbCalls, /^BatchWrite/)).toBe(0);
    kit.sim.faults.clear();
    const healed = await runAudit(deps, { audit: "failing", scheduledTime: hour(2) });
    expect(healed.transitions.filter((t) => t.kind === "resolved")).toHaveLength(first.transitions.length);
  });

  // The overlap fault is on page 3 of 6 of the failed-or-error query (514 rows): a page in the
  // middle of the scan. With page 3 the last (202 rows, 1,400 with 400 flagged), "rescans only
  // once" no longer holds as written; a larger fleet only adds runtimes to store.
  it("scans once more when the inventory moved under the paging, and completes", async () => {
    kit.sim.fleet.reset(generateFleet({ size: 1400, seed: 5, flagged: 1000 }));
    kit.sim.faults.add({ page: 3, action: { kind: "overlap" } });
    const healed = await runAudit(deps, { audit: "failing", scheduledTime: hour(0) });
    expect(healed).toMatchObject({ complete: true, rescans: 1, incompleteReason: null });
    expect(healed.transitions).toHaveLength(healed.flagged);
    // The rescan counts only what the second pass saw: nothing twice.
    expect(healed.flagged).toBe(healed.queries.reduce((n, q) => n + q.listed, 0));
  });

  it("rescans only once, and not at all after a failed request", async () => {
    kit.sim.fleet.reset(generateFleet({ size: 1400, seed: 5, flagged: 1000 }));
    kit.sim.faults.add({ page: 3, times: Number.POSITIVE_INFINITY, action: { kind: "overlap" } });
    const stuck = await runAudit(deps, { audit: "failing", scheduledTime: hour(0) });
    expect(stuck).toMatchObject({ complete: false, rescans: 1 });
    expect(stuck.incompleteReason).toMatch(/appeared on two pages/);
    kit.sim.faults.clear();
    kit.sim.faults.add({
      page: 2,
      times: Number.POSITIVE_INFINITY,
      action: { kind: "status", status: 500, json: true, body: "x" },
    });
    const failed = await runAudit(deps, { audit: "failing", scheduledTime: hour(1) });
    expect(failed.complete).toBe(false);
    expect(failed.rescans).toBeUndefined();
  });

  it("sends a digest again on the next run when its publish failed", async () => {
    const client = new SNSClient({
      endpoint: `http://127.0.0.1:${sns.server.port}`,
      region: "us-east-1",
      credentials: { accessKeyId: "t", secretAccessKey: "t" },
    });
    const mock = mockClient(client);
    mock.on(PublishCommand).rejects(new Error("Throttling: Rate exceeded"));
    const failing = await runAudit(
      withDeps(deps, { ports: { publisher: new SnsAlertPublisher({ client, topicArn: sns.topicArn }) } }),
      { audit: "failing", scheduledTime: hour(0) },
    );
    mock.restore();
    expect(failing.notified).toMatchObject({ messages: 0, transitions: 0, failed: failing.flagged });
    expect(failing.writes.snapshot).toBe(0);
    const retry = await runAudit(deps, { audit: "failing", scheduledTime: hour(0) });
    expect(retry.status).toBe("completed"); // the failed run was not recorded as done
    expect(retry.transitions.filter((t) => t.kind === "firing")).toHaveLength(failing.flagged);
    expect(messagesOf(await drainAll())).toHaveLength(1);
  });

  it("computes and returns everything in a dry run, publishing and writing nothing", async () => {
    const dry = await runAudit(deps, { audit: "failing", dryRun: true });
    expect(dry.dryRun).toBe(true);
    expect(dry.transitions.length).toBeGreaterThan(0);
    expect(dry.preview?.[0]?.subject).toMatch(/new runtime/);
    expect(await drainAll()).toEqual([]);
    expect(sumOf(ddbCalls, /^(Put|Delete|Update|BatchWrite|TransactWrite)/)).toBe(0);
    const real = await runAudit(deps, { audit: "failing" });
    expect(real.transitions).toHaveLength(dry.transitions.length);
  });

  it("records a baseline without notifying when notify is false", async () => {
    const baseline = await runAudit(deps, { audit: "failing", notify: false, scheduledTime: hour(0) });
    expect(baseline.transitions.length).toBeGreaterThan(0);
    expect(await drainAll()).toEqual([]);
    const next = await runAudit(deps, { audit: "failing", scheduledTime: hour(1) });
    expect(next.transitions).toEqual([]);
  });

  it("tells a large incident in one grouped message, keeps every transition in the report, and the next run is quiet", async () => {
    kit.sim.fleet.reset(generateFleet({ size: 7000, seed: 5, flagged: 5200 }));
    const big = await runAudit(deps, { audit: "failing", scheduledTime: hour(0) });
    expect(big.transitions.length).toBeGreaterThan(3000);
    expect(big.notified).toMatchObject({ messages: 1, transitions: big.transitions.length, failed: 0 });
    expect(big.report).toEqual({ stored: true });
    const [msg, ...more] = messagesOf(await drainAll());
    expect(more).toEqual([]);
    expect(Buffer.byteLength(msg?.body.email ?? "")).toBeLessThan(100_000);
    expect(msg?.body.email).toContain(`Every transition of this run: fleet-auditor runs show ${big.runId}`);
    const view = await showRun(
      { reports: deps.ports.reports as RunReportStore, store: deps.ports.store, audits: deps.ports.audits },
      big.runId,
    );
    expect(view?.source).toBe("report");
    expect(view?.transitions.map((t) => ("finding" in t ? t.key : t.instanceID)).sort()).toEqual(
      big.transitions.map((t) => t.instanceID).sort(),
    );
    const next = await runAudit(deps, { audit: "failing", scheduledTime: hour(1) });
    expect(next.transitions).toEqual([]);
    // The ledger item stays under DynamoDB's 400 KB: the first 500 transitions and a count.
    const record = await deps.ports.store.findRun("failing", `sched:${hour(0)}`);
    expect(record?.summary.transitions).toHaveLength(LEDGER_TRANSITIONS);
    expect(record?.summary.transitionsOmitted).toBe(big.transitions.length - LEDGER_TRANSITIONS);
  }, 60_000); // 5,200 runtimes through dynalite and fauxqs: a hang guard, not a bar.

  it("narrows an audit with extra KEB filters", async () => {
    const summary = await runAudit(deps, { audit: "failing", dryRun: true, filters: { plans: ["aws"] } });
    expect(summary.queries.map((q) => q.query)).toEqual([
      "plan=aws&state=failed&state=error",
      "plan=aws&state=deprovisionincomplete",
    ]);
  });

  it("lets a subscription filter on the severity and audit attributes", async () => {
    const critical = await sns.subscriber(`critical-${tableNo}`, {
      severity: ["critical"],
      audit: ["failing"],
    });
    const expiredOnly = await sns.subscriber(`expired-${tableNo}`, { audit: ["expired"] });
    await runAudit(deps, { audit: "failing", scheduledTime: hour(0) });
    const got = await critical();
    expect(got).toHaveLength(1);
    expect(got[0]?.MessageAttributes?.severity?.Value).toBe("critical");
    expect(JSON.parse(got[0]?.MessageAttributes?.kinds?.Value ?? "[]")).toEqual(["firing"]);
    expect(await expiredOnly()).toEqual([]);
  });
});

describe("run input", () => {
  it("lists every bad field of a bad payload", () => {
    const err = (() => {
      try {
        parseRunInput({
          audit: "",
          dryRun: "yes",
          filters: { states: ["failed"] },
          scheduledTime: "tomorrow",
        });
      } catch (e) {
        return e as RunInputError;
      }
    })();
    expect(err).toBeInstanceOf(RunInputError);
    expect(err?.message).toMatch(/audit: /);
    expect(err?.message).toMatch(/dryRun: /);
    expect(err?.message).toMatch(/filters: Unrecognized key: "states"/);
    expect(err?.message).toMatch(/scheduledTime: /);
  });

  it("refuses an unknown audit naming the known ones", async () => {
    await expect(runAudit(deps, { audit: "nope" })).rejects.toThrow(
      /unknown audit "nope"; known: failing, expired/,
    );
  });
});
