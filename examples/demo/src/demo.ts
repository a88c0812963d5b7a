import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  type AlertPublisher,
  type DigestMessage,
  type RunSummary,
  TRANSITION_KINDS,
} from "@fleet-auditor/audit";
import { EMBEDDED_TABLES } from "@fleet-auditor/cli";
import { ClientCredentialsTokenProvider, KebClient, KebTransport } from "@fleet-auditor/keb";
import { KEB_AUDITS, kebAudits } from "@fleet-auditor/keb-audits";
import { startKebSimulator } from "@fleet-auditor/keb-kubeedge-sim";
import { kubeedgeAudit } from "@fleet-auditor/kubeedge-audit";
import {
  DynamoAuditStore,
  DynamoReportStore,
  DynamoSilenceStore,
  DynamoStatusStore,
  startEmbeddedDynamo,
} from "@fleet-auditor/store";
import { AuditRegistry, type AuditRunDeps, runAudit } from "@fleet-auditor/use-cases";
import { runAppsDemo } from "./demo-apps.ts";
import { showIncidentHistory } from "./demo-history.ts";

// The CLI's tables under a state directory: `fleet-auditor … --state-dir DIR` reads what the demo wrote.
const TABLE = EMBEDDED_TABLES.audit;
const STATUS_TABLE = EMBEDDED_TABLES.status;

/** What the demo did: where its store is, and every audit run it made, in order. */
export interface DemoResult {
  stateDir: string;
  runs: RunSummary[];
}

/** Prints each published digest the way a subscriber reads it: the e-mail, then the Slack line. */
class PrintingPublisher implements AlertPublisher {
  readonly out: NodeJS.WritableStream;
  constructor(out: NodeJS.WritableStream) {
    this.out = out;
  }
  async publish(m: DigestMessage): Promise<{ messageId: string }> {
    const body = JSON.parse(m.message) as { email: string; https: string };
    const chat = JSON.parse(body.https) as { content: { title: string } };
    this.out.write(
      `\n  ┌─ e-mail: ${m.subject}\n${indent(body.email)}\n  └─ Slack (AWS Chatbot): ${chat.content.title}\n`,
    );
    return { messageId: crypto.randomUUID() };
  }
}

const indent = (text: string): string =>
  text
    .split("\n")
    .map((l) => `  │ ${l}`)
    .join("\n");

/**
 * `npm start`: a simulated KEB behind a token issuer, the embedded DynamoDB-compatible store, and
 * both audits run hour by hour while the fleet changes; then a burst of KubeEdge Application
 * messages into the status table, and the applications audit telling a stuck Application and a
 * refusing node, then their resolution; at the end, the incidents the runs kept (`fleet-auditor
 * incidents list`) and their page, `report.html`. No AWS, no network, well under a minute. The store is kept under `stateDir`
 * (default a new temporary directory), where the CLI reads it with `--state-dir`.
 */
export async function runDemo(
  out: NodeJS.WritableStream = process.stdout,
  options: { stateDir?: string } = {},
): Promise<DemoResult> {
  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), "fleet-auditor-demo-"));
  const runs: RunSummary[] = [];
  const sim = await startKebSimulator({
    fleet: { size: 1500, seed: 42, flagged: 12 },
    latencyMs: 5,
    auth: { clients: [{ id: "fleet-auditor", secret: "demo-secret", groups: ["runtimeViewer"] }] },
  });
  const db = await startEmbeddedDynamo({
    dir: join(stateDir, "dynamodb"),
    tables: [TABLE],
    statusTables: [STATUS_TABLE],
  });
  const transport = new KebTransport();
  const tokenProvider = new ClientCredentialsTokenProvider({
    tokenUrl: sim.tokenUrl,
    clientId: "fleet-auditor",
    clientSecret: "demo-secret",
    transport,
  });
  const client = new KebClient({
    baseUrl: sim.url,
    transport,
    tokenProvider,
    retry: { maxRetries: 1, baseDelayMs: 10 },
  });
  // Both audits, as the functions register them; the status table joins for the edge part.
  const statusStore = new DynamoStatusStore({ client: db.client, tableName: STATUS_TABLE });
  const deps: AuditRunDeps = {
    ports: {
      audits: new AuditRegistry([...kebAudits({ client }), kubeedgeAudit({ statusStore })]),
      store: new DynamoAuditStore({ client: db.client, tableName: TABLE }),
      silences: new DynamoSilenceStore({ client: db.client, tableName: TABLE }),
      publisher: new PrintingPublisher(out),
      reports: new DynamoReportStore({ client: db.client, tableName: TABLE }),
    },
    settings: {
      landscape: "demo",
      links: {
        runtime: "https://console.example/runtimes/{instanceID}",
        runbook: "https://runbooks.example/keb/{reason}",
      },
      // The demo shows the notice after two blind runs instead of three.
      degradedAfterRuns: 2,
      // The commands its messages quote act on its store, as a deployed stage's name its table:
      // pasted without it, they would read an empty ./.fleet-auditor and find nothing.
      commandStore: { stateDir: resolve(stateDir) },
    },
  };
  let hour = 6;
  const runBoth = async (title: string, at = hour++): Promise<void> => {
    const scheduledTime = new Date(Date.UTC(2026, 10, 29, at)).toISOString();
    out.write(`\n━━ ${scheduledTime.slice(11, 16)} UTC  ${title}\n`);
    for (const { name: audit } of KEB_AUDITS) {
      const summary = await runAudit(
        { ...deps, hooks: { clock: () => new Date(scheduledTime) } },
        { audit, scheduledTime },
      );
      runs.push(summary);
      out.write(`  ${line(summary)}\n`);
    }
  };
  try {
    out.write(
      `fleet-auditor demo: KEB simulator with ${sim.fleet.size} runtimes at ${sim.url}, embedded store, OAuth2 client credentials\n`,
    );
    await runBoth("first scheduled run: everything flagged fires");
    await runBoth("nothing changed: no message, no snapshot write");

    const changes = sim.fleet.mutate({ fail: 3, recover: 2, expire: 2, create: 20 });
    out.write(
      `\nThe fleet changes: ${changes
        .filter((c) => c.kind !== "create")
        .map((c) => `${c.instanceID.slice(0, 8)} ${c.detail}`)
        .join("; ")}; 20 runtimes provisioned\n`,
    );
    await runBoth("runtimes failed, recovered and expired");
    hour--;
    await runBoth("the scheduler delivers the same scheduled time again", hour++);

    const recovered = sim.fleet.mutate({ recover: 3 });
    sim.faults.add({
      page: 1,
      times: Number.POSITIVE_INFINITY,
      action: { kind: "status", status: 503, body: "no healthy upstream" },
    });
    out.write(`\n${recovered.length} runtimes recover, but KEB's gateway answers 503 on every request\n`);
    await runBoth("KEB unreachable: the scan is incomplete, so nothing resolves");
    await runBoth("KEB still unreachable: the second blind run in a row sends one DEGRADED notice");
    sim.faults.clear();
    await runBoth("KEB is back: the recoveries resolve, and one RECOVERED notice");

    await runAppsDemo(statusStore, out, { deps, line, runs });
  } finally {
    await db.close();
    await sim.close();
  }
  // The store closed: the CLI opens it as a terminal would.
  await showIncidentHistory(stateDir, out);
  return { stateDir, runs };
}

function line(s: RunSummary): string {
  if (s.status === "duplicate")
    return `${s.audit}: already done by run ${s.runId.slice(0, 8)} for this scheduled time; nothing sent, nothing written`;
  const counts = TRANSITION_KINDS.map((k) => [k, s.transitions.filter((t) => t.kind === k).length] as const)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`);
  const scan =
    s.status === "completed"
      ? s.complete
        ? "complete scan"
        : `INCOMPLETE scan (${s.incompleteReason})`
      : s.status;
  const notice = s.health?.notice ? `, ${s.health.notice.toUpperCase()} notice sent` : "";
  return `${s.audit}: ${scan}, ${s.flagged} flagged, ${counts.length ? counts.join(", ") : "no transitions"}, ${s.notified.messages} message(s), ${s.writes.snapshot + s.writes.deleted} snapshot write(s)${notice}`;
}
