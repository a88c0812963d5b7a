import type { RunSummary } from "@fleet-auditor/audit";
import { renderTable } from "@fleet-auditor/cli";
import { applicationTraffic } from "@fleet-auditor/keb-kubeedge-sim";
import type { StatusRow } from "@fleet-auditor/metaserver";
import type { DynamoStatusStore } from "@fleet-auditor/store";
import { type AuditRunDeps, ingestBatch, runAudit } from "@fleet-auditor/use-cases";

/** How the demo runs an audit and prints its line; `runs` collects every run's summary. */
interface DemoAudit {
  deps: AuditRunDeps;
  line: (s: RunSummary) => string;
  runs: RunSummary[];
}

/** A watch sync as an edge sends it when a watch stops: a map of ID to watch Application. */
function watchSync(node: string, at: number): string {
  const app = (id: string, key: string) => ({
    ID: id,
    Key: key,
    Verb: "watch",
    Nodename: node,
    Option: Buffer.from('{"watch":true,"resourceVersion":"48290","timeoutSeconds":412}').toString("base64"),
    ReqBody: null,
    Subresource: "",
    RespBody: null,
    Status: "Approved",
    Reason: "",
    Error: { ErrStatus: { metadata: {} } },
    Timestamp: "0001-01-01T00:00:00Z",
  });
  const a = "5c41f6dc7143f102eea5486c6a2f062f390d86a2eabf7dce699f1e7f9f4852f0";
  const b = "2be60e6626e44cb7894e73b810c7d7d464af45953d65e307db564b4cad43347b";
  return JSON.stringify({
    header: { msg_id: "d4af5ec1-5268-46e3-8ae5-ae07cd1937f7", timestamp: at },
    route: {
      source: "metaserver",
      group: "dynamiccontroller",
      operation: "null",
      resource: `node/${node}/watchapp/sync`,
    },
    content: {
      [a]: app(a, "/core/v1/services/null/null"),
      [b]: app(b, "/discovery.k8s.io/v1/endpointslices/null/null"),
    },
  });
}

/**
 * The Application part of `npm start`: a burst of realistic metaserver messages, shuffled, with
 * duplicates and a few malformed bodies, through the same code as the SQS function; then the table.
 */
export async function runAppsDemo(
  store: DynamoStatusStore,
  out: NodeJS.WritableStream,
  audit: DemoAudit,
): Promise<void> {
  const start = Date.UTC(2026, 11, 1, 9, 0);
  const traffic = applicationTraffic({ applications: 40, nodes: 4, seed: 5, start, rejectShare: 0.2 });
  const malformed = [
    "upstream connect error or disconnect/reset before headers",
    JSON.stringify({ header: { msg_id: "bad-1", timestamp: start }, route: {}, content: "eyJJRCI6IngifQ==" }),
    JSON.stringify({
      header: { msg_id: "bad-2", timestamp: start },
      route: {},
      content: { ID: "x", Option: "not base64!" },
    }),
  ];
  // Out of order and at least once: responses before requests, some messages twice.
  const burst = [
    ...traffic.slice().reverse(),
    ...traffic.slice(0, 12),
    watchSync("edge-002", start + 90_000),
    ...malformed,
  ];
  let totals = { applied: 0, stale: 0, duplicate: 0, quarantined: 0, failed: 0 };
  for (let i = 0; i < burst.length; i += 10) {
    const batch = burst.slice(i, i + 10).map((body, j) => ({ messageId: `demo-${i + j}`, body }));
    const { counts } = await ingestBatch({ store, clock: () => new Date(start + 100_000) }, batch);
    totals = {
      applied: totals.applied + counts.applied,
      stale: totals.stale + counts.stale,
      duplicate: totals.duplicate + counts.duplicate,
      quarantined: totals.quarantined + counts.quarantined,
      failed: totals.failed + counts.failed,
    };
  }
  out.write(
    `\n━━ KubeEdge Applications: ${burst.length} SQS messages (reversed order, 12 repeated, a watch sync, 3 malformed)\n` +
      `  ${totals.applied} rows written, ${totals.stale} stale, ${totals.duplicate} duplicate, ${totals.quarantined} quarantined, ${totals.failed} failed\n\n`,
  );
  const rows = await store.query({ limit: 500 }, new Date(start + 100_000));
  const byStatus = new Map<string, number>();
  for (const r of rows) byStatus.set(r.status, (byStatus.get(r.status) ?? 0) + 1);
  out.write(
    `  status table: ${rows.length} Applications; ${[...byStatus].map(([s, n]) => `${n} ${s}`).join(", ")}\n\n`,
  );
  const rejected = rows.filter((r) => r.status === "Rejected");
  out.write(`${indent(table(rejected.slice(0, 8)))}\n`);
  out.write(
    // Sorted: the three arrive in one batch, so their order in the table is a tie.
    `\n  quarantined: ${(await store.quarantined())
      .map((q) => `${q.code} (${q.reason.length > 60 ? `${q.reason.slice(0, 59)}…` : q.reason})`)
      .sort()
      .join("; ")}\n`,
  );
  await edgeAudits(store, out, audit, start + 3_600_000);
}

/**
 * The applications audit over the same table: an Application left in flight and a node whose
 * requests the cloud refuses (an RBAC mistake) are told, then resolve once answered and fixed.
 */
async function edgeAudits(
  store: DynamoStatusStore,
  out: NodeJS.WritableStream,
  audit: DemoAudit,
  t: number,
): Promise<void> {
  const minutes = (m: number) => t + m * 60_000;
  let no = 0;
  const message = (id: string, status: string, at: number, node: string, error?: Record<string, unknown>) =>
    JSON.stringify({
      header: { msg_id: `edge-demo-${++no}`, timestamp: at },
      route: { resource: `node/${node}/null` },
      content: {
        ID: id,
        Key: node === "edge-017" ? "/core/v1/services/null/null" : "/apps/v1/deployments/shop/checkout",
        Verb: node === "edge-017" ? "list" : "get",
        Nodename: node,
        Status: status,
        ...(error ? { Error: { ErrStatus: error } } : {}),
      },
    });
  const forbidden = {
    kind: "Status",
    status: "Failure",
    reason: "Forbidden",
    code: 403,
    message:
      'services is forbidden: User "system:node:edge-017" cannot list resource "services" at the cluster scope',
  };
  const ingest = (bodies: string[], at: number) =>
    ingestBatch(
      { store, clock: () => new Date(at) },
      bodies.map((body, i) => ({ messageId: `edge-demo-q-${no}-${i}`, body })),
    );
  const run = async (title: string, at: number): Promise<void> => {
    const scheduledTime = new Date(at).toISOString();
    out.write(`\n━━ ${scheduledTime.slice(11, 16)} UTC  applications audit: ${title}\n`);
    const summary = await runAudit(
      { ...audit.deps, hooks: { ...audit.deps.hooks, clock: () => new Date(at) } },
      { audit: "applications", scheduledTime },
    );
    audit.runs.push(summary);
    out.write(`  ${audit.line(summary)}\n`);
  };
  await ingest(
    [
      message("checkout-rollout", "InApplying", minutes(-30), "edge-003"),
      ...Array.from({ length: 9 }, (_, i) =>
        message(`edge-017-list-${i}`, "Rejected", minutes(-9 + i), "edge-017", forbidden),
      ),
    ],
    minutes(-1),
  );
  out.write(
    "\nOn the edge: edge-003's request to get a deployment has had no answer for 30 minutes, and edge-017's\n" +
      "requests to list services are refused, 9 in 9 minutes (its RBAC lost a binding)\n",
  );
  await run("a stuck Application and a refusing node are told", minutes(0));
  await ingest([message("checkout-rollout", "Approved", minutes(3), "edge-003")], minutes(3));
  out.write("\nThe cloud answers edge-003; edge-017's binding is restored and its refusals stop\n");
  await run("answered and fixed: both resolve", minutes(20));
}

function table(rows: StatusRow[]): string {
  return renderTable(
    ["NODE", "STATUS", "VERB", "KEY", "ERROR"],
    rows.map((r) => [
      r.node,
      r.status,
      r.verb,
      r.key,
      r.error ? `${r.error.code ?? ""} ${r.error.reason ?? ""} ${r.error.message ?? ""}`.trim() : r.reason,
    ]),
  );
}

const indent = (text: string): string =>
  text
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n");
