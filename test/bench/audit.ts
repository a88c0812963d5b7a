import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { CreateTopicCommand, SNSClient } from "@aws-sdk/client-sns";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { KEB_AUDITS as AUDITS, type KebAuditDefinition } from "@fleet-auditor/audit";
import { KebClient, KebTransport, StaticTokenProvider, scanAll } from "@fleet-auditor/keb";
import { SnsAlertPublisher } from "@fleet-auditor/notify";
import { type AuditRunDeps, runAudit } from "@fleet-auditor/runner";
import { DynamoAuditStore, DynamoReportStore, documentClient } from "@fleet-auditor/store";
import { startFauxqs } from "fauxqs";
import { countRequests, sumOf } from "../helpers/aws-requests.ts";
import { naiveAudit } from "./naive-audit.ts";
import { startChildDynamo, startChildSim } from "./sim-child.ts";

const LATENCY_MS = 20;
const ROUNDS = 5;
const credentials = { accessKeyId: "bench", secretAccessKey: "bench" };
const median = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const fmt = (n: number, d = 1): string => n.toFixed(d);

/** `npm run bench -- audit`: a steady run against listing alone, and AWS requests against a naive audit. */
export async function benchAudit(): Promise<boolean> {
  const say = (line: string): void => void process.stdout.write(`${line}\n`);
  say(
    `Audit benchmark (node ${process.version}; simulator and DynamoDB in child processes, fauxqs for SNS; ${ROUNDS} rounds, medians)`,
  );
  const sim = await startChildSim({ size: 50_000, flagged: 5_000, latency: LATENCY_MS });
  const dynamo = await startChildDynamo(["audit-ours", "audit-naive"]);
  const sqs = await startFauxqs({ port: 0, host: "127.0.0.1", logger: false });
  const transport = new KebTransport();
  const ddbClient = (): DynamoDBDocumentClient =>
    documentClient(new DynamoDBClient({ endpoint: dynamo.endpoint, region: "local", credentials }));
  const snsClient = (): SNSClient =>
    new SNSClient({ endpoint: `http://127.0.0.1:${sqs.port}`, region: "us-east-1", credentials });
  let ok = true;
  try {
    const source = new KebClient({
      baseUrl: sim.url,
      transport,
      tokenProvider: new StaticTokenProvider("bench"),
    });
    const topicArn = (await snsClient().send(new CreateTopicCommand({ Name: "alerts" }))).TopicArn as string;
    const ours = { ddb: ddbClient(), sns: snsClient() };
    const naive = { ddb: ddbClient(), sns: snsClient() };
    const oursDdb = countRequests(ours.ddb);
    const oursSns = countRequests(ours.sns);
    const naiveDdb = countRequests(naive.ddb);
    const naiveSns = countRequests(naive.sns);
    const deps: AuditRunDeps = {
      source,
      store: new DynamoAuditStore({ client: ours.ddb, tableName: "audit-ours" }),
      reports: new DynamoReportStore({ client: ours.ddb, tableName: "audit-ours" }),
      publisher: new SnsAlertPublisher({ client: ours.sns, topicArn }),
    };
    // Listing alone, classifying each page as the audit does, but no snapshot, diff or commit.
    const listOnly = (audit: KebAuditDefinition) =>
      scanAll(source, audit.queries, {
        retain: false,
        onPage: (runtimes) => {
          for (const r of runtimes) audit.classify(r);
        },
      });
    const aws = (): number => sumOf(oursDdb, /./) + sumOf(oursSns, /./);
    const naiveAws = (): number => sumOf(naiveDdb, /./) + sumOf(naiveSns, /./);
    const reset = (...maps: Array<Map<string, number>>): void => {
      for (const m of maps) m.clear();
    };

    for (const audit of AUDITS) await listOnly(audit); // warm-up
    say(`fleet 50000 runtimes, 5000 flagged, ${LATENCY_MS} ms KEB latency per request`);
    let hour = 0;
    const at = (): string => new Date(Date.UTC(2026, 10, 1, hour++)).toISOString();

    reset(oursDdb, oursSns);
    const first = [];
    for (const audit of AUDITS) first.push(await runAudit(deps, { audit: audit.name, scheduledTime: at() }));
    const firstRequests = aws();
    const firstDdbWrites = sumOf(oursDdb, /^(Put|Delete|Update|BatchWrite)/);
    reset(naiveDdb, naiveSns);
    for (const audit of AUDITS) await naiveAudit({ source, ...naive, topicArn, table: "audit-naive" }, audit);
    const naiveFirst = naiveAws();
    say(
      `first run: ${first.map((s) => `${s.audit} ${s.flagged} flagged, ${s.transitions.length} transitions, ${s.notified.messages} message(s)`).join("; ")}`,
    );
    say(
      `  AWS requests: ours ${firstRequests} (DynamoDB writes ${firstDdbWrites}), naive ${naiveFirst}; ratio ${fmt(naiveFirst / firstRequests)}x (bar >= 10) ${naiveFirst / firstRequests >= 10 ? "PASS" : "FAIL"}`,
    );
    ok &&= naiveFirst / firstRequests >= 10;

    const steadyMs: number[] = [];
    const listMs: number[] = [];
    let steadyRequests = 0;
    let steadySnapshotWrites = 0;
    let steadyWrites = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const audit of AUDITS) {
        let t = performance.now();
        await listOnly(audit);
        listMs.push(performance.now() - t);
        reset(oursDdb, oursSns);
        t = performance.now();
        const s = await runAudit(deps, { audit: audit.name, scheduledTime: at() });
        steadyMs.push(performance.now() - t);
        if (s.transitions.length) throw new Error(`steady run of ${audit.name} had transitions`);
        steadyRequests = Math.max(steadyRequests, aws());
        steadySnapshotWrites = Math.max(
          steadySnapshotWrites,
          s.writes.snapshot + s.writes.deleted + sumOf(oursDdb, /^BatchWrite/),
        );
        steadyWrites = Math.max(steadyWrites, sumOf(oursDdb, /^(Put|Delete|Update|BatchWrite)/));
      }
    }
    reset(naiveDdb, naiveSns);
    for (const audit of AUDITS) await naiveAudit({ source, ...naive, topicArn, table: "audit-naive" }, audit);
    const naiveSteady = naiveAws();
    // Per run (one audit), medians over both audits and all rounds.
    const steady = median(steadyMs);
    const list = median(listMs);
    say(
      `steady run (nothing changed), per audit run: ${fmt(steady)} ms; listing alone: ${fmt(list)} ms; ratio ${fmt(steady / list, 2)} (bar <= 1.50) ${steady / list <= 1.5 ? "PASS" : "FAIL"}`,
    );
    say(
      `  snapshot item writes: ${steadySnapshotWrites} (bar 0) ${steadySnapshotWrites === 0 ? "PASS" : "FAIL"}; DynamoDB writes in all: ${steadyWrites} (bar <= 3) ${steadyWrites <= 3 ? "PASS" : "FAIL"}`,
    );
    const steadyBoth = steadyRequests * AUDITS.length;
    say(
      `  AWS requests (both audits): ours at most ${steadyBoth}, naive ${naiveSteady}; ratio ${fmt(naiveSteady / steadyBoth)}x (bar >= 10) ${naiveSteady / steadyBoth >= 10 ? "PASS" : "FAIL"}`,
    );
    ok &&=
      steady / list <= 1.5 &&
      steadySnapshotWrites === 0 &&
      steadyWrites <= 3 &&
      naiveSteady / steadyBoth >= 10;
  } finally {
    await sqs.stop();
    await dynamo.stop();
    await sim.stop();
  }
  return ok;
}
