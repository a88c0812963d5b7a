import type { RunReport } from "@fleet-auditor/audit";
import { applicationsAudit } from "@fleet-auditor/kubeedge-audit";
import { SnsAlertPublisher } from "@fleet-auditor/notify";
import { type DigestV1, reportDigests, slackMessage } from "@fleet-auditor/render";
import {
  auditTableDefinition,
  DynamoAuditStore,
  DynamoReportStore,
  DynamoSilenceStore,
  DynamoStatusStore,
  ensureTable,
  statusTableDefinition,
} from "@fleet-auditor/store";
import { type AuditRunDeps, ingestBatch, runAudit } from "@fleet-auditor/use-cases";
import { beforeEach, describe, expect, it } from "vitest";
import { useDynamo } from "../../helpers/dynamo.ts";
import { withDeps } from "../../helpers/run-deps.ts";
import { type Delivered, useSns } from "../../helpers/sns.ts";
import { testAudits } from "../../helpers/test-audits.ts";

// The applications audit end to end: messages through the real ingest into the status table,
// the audit through the same engine as KEB's (snapshot, ledger, lease, silences, digests) on
// dynalite and, in the dynamodb-local project, AWS's DynamoDB Local; SNS on fauxqs.

const env = useDynamo([]);
const sns = useSns();

const T0 = Date.UTC(2026, 10, 1, 12, 0);
const at = (minutes: number) => new Date(T0 + minutes * 60_000);

let n = 0;
let deps: AuditRunDeps;
let status: DynamoStatusStore;
let silences: DynamoSilenceStore;
let drain: () => Promise<Delivered[]>;
let messageNo = 0;

beforeEach(async () => {
  n++;
  const [auditTable, statusTable] = [`audit-apps-${n}`, `status-apps-${n}`];
  await ensureTable(env.db.client, auditTableDefinition(auditTable));
  await ensureTable(env.db.client, statusTableDefinition(statusTable));
  const table = { client: env.db.client, tableName: auditTable };
  status = new DynamoStatusStore({ client: env.db.client, tableName: statusTable });
  silences = new DynamoSilenceStore(table);
  drain = await sns.subscriber(`apps-${n}`);
  deps = {
    ports: {
      audits: testAudits({ statusStore: status }),
      store: new DynamoAuditStore(table),
      reports: new DynamoReportStore(table),
      silences,
      publisher: new SnsAlertPublisher({ client: sns.sns, topicArn: sns.topicArn }),
    },
    settings: { landscape: "test-edge" },
  };
});

/** One metaserver message about one Application, as the edge or the cloud sends it. */
function message(
  id: string,
  status: string,
  minute: number,
  extra: { node?: string; key?: string; verb?: string; error?: Record<string, unknown> } = {},
): string {
  const node = extra.node ?? "edge-17";
  return JSON.stringify({
    header: { msg_id: `m-${++messageNo}`, timestamp: at(minute).getTime() },
    route: { resource: `node/${node}/null` },
    content: {
      ID: id,
      Key: extra.key ?? "/core/v1/services/null/null",
      Verb: extra.verb ?? "list",
      Nodename: node,
      Status: status,
      ...(extra.error ? { Error: { ErrStatus: extra.error } } : {}),
    },
  });
}

const forbidden = {
  kind: "Status",
  status: "Failure",
  reason: "Forbidden",
  code: 403,
  message: 'services is forbidden: User "system:node:edge-17" cannot list resource "services"',
};

async function ingest(bodies: string[], minute: number): Promise<void> {
  const { counts } = await ingestBatch(
    { store: status, clock: () => at(minute) },
    bodies.map((body, i) => ({ messageId: `q-${messageNo}-${i}`, body })),
  );
  expect(counts.failed).toBe(0);
}

const run = (minute: number, extra: Record<string, unknown> = {}) =>
  runAudit(withDeps(deps, { hooks: { clock: () => at(minute) } }), {
    audit: "applications",
    scheduledTime: at(minute).toISOString(),
    ...extra,
  });

const digestsOf = (delivered: Delivered[]) =>
  delivered.map((d) => {
    const body = JSON.parse(d.Message) as { default: string; email: string };
    return { subject: d.Subject, email: body.email, digest: JSON.parse(body.default) as DigestV1 };
  });

describe("the applications audit (status table, dynalite or DynamoDB Local, fauxqs)", () => {
  it("tells stuck Applications by node, a refusing node and quarantined messages, then their resolution", async () => {
    // The refusing node (edge-8) has no stuck Application: one it had would be held back by it.
    await ingest(
      [
        message("stuck-1", "InApplying", 0),
        message("stuck-2", "PreApplying", 1, { key: "/apps/v1/deployments/default/nginx", verb: "get" }),
        message("stuck-3", "InProcessing", 2, { node: "edge-4", key: "/core/v1/pods/default/null" }),
        message("fresh", "InApplying", 25),
        message("done", "InApplying", 0, { node: "edge-9" }),
        message("done", "Approved", 1, { node: "edge-9" }),
        ...Array.from({ length: 6 }, (_, i) =>
          message(`rbac-${i}`, "Rejected", 20 + i, { node: "edge-8", error: forbidden }),
        ),
        ...Array.from({ length: 4 }, (_, i) =>
          message(`few-${i}`, "Rejected", 20, { node: "edge-2", error: forbidden }),
        ),
        "not json at all",
      ],
      26,
    );
    const first = await run(30);
    expect(first).toMatchObject({ status: "completed", complete: true, flagged: 5 });
    expect(first.transitions.map((t) => `${t.kind} ${t.instanceID}`).sort()).toEqual([
      "firing app:stuck-1",
      "firing app:stuck-2",
      "firing app:stuck-3",
      "firing quarantine:MS_NOT_JSON",
      "firing refusals:edge-8:403:Forbidden",
    ]);
    const [told] = digestsOf(await drain());
    expect(told?.subject).toMatch(/\| test-edge \| WARNING/);
    expect(told?.email).toContain("node edge-8: 6 × 403 Forbidden on list services");
    expect(told?.email).toContain("node edge-17: list /core/v1/services/null/null");
    expect(told?.email).toContain("inspect: fleet-auditor apps status --node edge-17");
    expect(told?.email).toContain("Scan complete: ");
    // Grouped by node: edge-17's two stuck Applications are one group, edge-4's another.
    const stuckGroups = told?.digest.groups
      .filter((g) => g.state === "stuck")
      .map((g) => [g.region, g.count]);
    expect(stuckGroups?.sort()).toEqual([
      ["edge-17", 2],
      ["edge-4", 1],
    ]);
    const refused = told?.digest.transitions.find((t) => t.edge?.what === "refused");
    expect(refused?.edge).toMatchObject({
      node: "edge-8",
      code: 403,
      count: 6,
      requests: ["list services"],
    });
    // Slack (the function renders the incidents topic's digest, which carries its rows) names
    // nodes and verbs: the run rendered again as that topic gets it.
    const report = await deps.ports.reports?.loadReport(first.runId);
    const [forSlack] = reportDigests(report as RunReport, {
      forChannels: true,
      groupBy: applicationsAudit.groupBy,
      presenter: applicationsAudit.presenter,
      reportCommand: `fleet-auditor runs show ${first.runId}`,
    });
    const slack = JSON.stringify(
      slackMessage(JSON.parse(JSON.parse(forSlack?.message ?? "{}").default) as DigestV1),
    );
    expect(slack).toContain("on node `edge-17`");
    expect(slack).toContain("verbs list");
    expect(slack).toContain("InApplying since");

    // stuck-1 is answered; the refusals leave the 15-minute window; the quarantine too; and
    // "fresh", quiet for 20 minutes now, is stuck in its turn.
    await ingest([message("stuck-1", "Approved", 40)], 41);
    const second = await run(45);
    expect(second.transitions.map((t) => `${t.kind} ${t.instanceID}`).sort()).toEqual([
      "firing app:fresh",
      "resolved app:stuck-1",
      "resolved quarantine:MS_NOT_JSON",
      "resolved refusals:edge-8:403:Forbidden",
    ]);
    const [resolved] = digestsOf(await drain());
    expect(resolved?.email).toContain("the node's refusals fell below the threshold");
    // The same scheduled time again: the ledger answers, nothing is told twice.
    expect((await run(45)).status).toBe("duplicate");
    expect(await drain()).toEqual([]);
  });

  it("previews in a dry run and records a baseline without telling, as the KEB audits do", async () => {
    await ingest([message("stuck-1", "InApplying", 0)], 1);
    const dry = await run(30, { dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, writes: { snapshot: 0 } });
    expect(dry.preview?.[0]?.subject).toContain(
      "stuck on node edge-17, list /core/v1/services/null/null: new | test-edge | WARNING",
    );
    expect(await drain()).toEqual([]);
    const baseline = await run(31, { notify: false });
    expect(baseline).toMatchObject({ notified: { messages: 0 }, writes: { snapshot: 1 } });
    expect(await drain()).toEqual([]);
    // Already known: the next run is quiet.
    expect((await run(36)).transitions).toEqual([]);
  });

  it("resolves nothing when the status table cannot be read to its end", async () => {
    await ingest([message("stuck-1", "InApplying", 0)], 1);
    expect((await run(30)).transitions).toHaveLength(1);
    await drain();
    const failOne =
      (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) =>
      async (args: unknown) => {
        const input = (args as { input: { TableName?: string } }).input;
        if (context.commandName === "QueryCommand" && input.TableName?.startsWith("status-")) {
          throw Object.assign(new Error("Rate of requests exceeds the allowed throughput"), {
            name: "ThrottlingException",
          });
        }
        return next(args);
      };
    env.db.client.middlewareStack.add(failOne as never, { step: "initialize", name: "throttleStatus" });
    try {
      const blind = await run(35);
      expect(blind).toMatchObject({ complete: false, incompleteCode: "STATUS_READ", transitions: [] });
      expect(blind.incompleteReason).toMatch(/reading the status table failed: .*throughput/);
    } finally {
      env.db.client.middlewareStack.remove("throttleStatus");
    }
    // Read again in full: the Application is still stuck, so still firing, not resolved.
    expect((await run(40)).transitions).toEqual([]);
  });

  it("keeps a silenced node quiet and says so in the summary", async () => {
    await ingest(
      [message("a", "InApplying", 0, { node: "edge-5" }), message("b", "InApplying", 0, { node: "edge-6" })],
      1,
    );
    await silences.add({
      id: "maint-edge-5",
      audit: "applications",
      match: [
        { name: "node", op: "=", value: "edge-5" },
        { name: "verb", op: "=", value: "list" },
      ],
      startsAt: at(0).toISOString(),
      endsAt: at(120).toISOString(),
      createdBy: "sre",
      comment: "node under maintenance",
    });
    const summary = await run(30);
    expect(summary.notified).toMatchObject({ suppressed: 1 });
    const [told] = digestsOf(await drain());
    expect(told?.digest.transitions.map((t) => t.edge?.node)).toEqual(["edge-6"]);
  });

  it("holds back a refusing node's stuck Applications while it refuses, counts them, and tells them once it no longer does", async () => {
    await ingest(
      [
        message("stuck-1", "InApplying", 0),
        message("stuck-2", "PreApplying", 1, { key: "/apps/v1/deployments/default/nginx", verb: "get" }),
        ...Array.from({ length: 6 }, (_, i) =>
          message(`rbac-${i}`, "Rejected", 20 + i, { error: forbidden }),
        ),
      ],
      26,
    );
    const refusal = "refusals:edge-17:403:Forbidden";
    const first = await run(30);
    expect(first.transitions.map((t) => [t.kind, t.instanceID, t.inhibitedBy]).sort()).toEqual([
      ["firing", "app:stuck-1", refusal],
      ["firing", "app:stuck-2", refusal],
      ["firing", refusal, undefined],
    ]);
    expect(first.notified).toMatchObject({ messages: 1, suppressed: 0, inhibited: 2 });
    // Only the node's message goes out: its stuck Applications are in no message.
    const [told] = digestsOf(await drain());
    expect(told?.digest.transitions.map((t) => `${t.edge?.what} ${t.edge?.node}`)).toEqual([
      "refused edge-17",
    ]);
    expect(told?.email).not.toContain("stuck");
    // The run's report keeps them, with the finding that held them back.
    const report = await deps.ports.reports?.loadReport(first.runId);
    expect(
      report?.transitions
        .filter((t) => t.inhibitedBy === refusal)
        .map((t) => t.key)
        .sort(),
    ).toEqual(["app:stuck-1", "app:stuck-2"]);
    // Still refusing: nothing to tell, and the Applications are not resolved by it.
    expect((await run(35)).transitions).toEqual([]);
    expect(await drain()).toEqual([]);
    // The refusals leave the window; the Applications are still stuck, and are told now.
    const second = await run(45);
    expect(second.transitions.map((t) => `${t.kind} ${t.instanceID}`).sort()).toEqual([
      "firing app:stuck-1",
      "firing app:stuck-2",
      `resolved ${refusal}`,
    ]);
    expect(second.notified.inhibited).toBeUndefined();
    const [released] = digestsOf(await drain());
    expect(released?.digest.transitions.map((t) => `${t.kind} ${t.edge?.what}`).sort()).toEqual([
      "firing stuck",
      "firing stuck",
      "resolved refused",
    ]);
  });

  it("refuses KEB filters, and needs the status table", async () => {
    await expect(run(30, { filters: { regions: ["eu"] } })).rejects.toThrow(/narrow KEB audits only/);
    const withoutTable = withDeps(deps, {
      ports: { audits: testAudits() },
      hooks: { clock: () => at(30) },
    });
    await expect(runAudit(withoutTable, { audit: "applications", dryRun: true })).rejects.toThrow(
      /STATUS_TABLE/,
    );
  });
});
