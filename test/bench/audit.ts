import { CreateTopicCommand, SNSClient } from "@aws-sdk/client-sns";
import {
  KebClient,
  KebTransport,
  type RuntimeSource,
  StaticTokenProvider,
  scanAll,
} from "@fleet-auditor/keb";
import { KEB_AUDITS as AUDITS, type KebAuditDefinition } from "@fleet-auditor/keb-audits";
import { SnsAlertPublisher } from "@fleet-auditor/notify";
import { DynamoAuditStore, DynamoReportStore } from "@fleet-auditor/store";
import { type AuditRunDeps, runAudit } from "@fleet-auditor/use-cases";
import { startFauxqs } from "fauxqs";
import { countRequests, sumOf } from "../helpers/aws-requests.ts";
import { testAudits } from "../helpers/test-audits.ts";
import { type BenchDynamo, benchDynamos } from "./bench-dynamo.ts";
import { type BenchOptions, fmt, median, Report, spread } from "./kit.ts";
import { naiveAudit } from "./naive-audit.ts";
import { startChildSim } from "./sim-child.ts";

const CONCURRENCY = 4;
const WARM_UP = 10;
const credentials = { accessKeyId: "bench", secretAccessKey: "bench" };

/** The issue's parameters, and a smoke size that runs in seconds. */
const SIZES = {
  full: { size: 50_000, flagged: 5_000, latency: 20, rounds: 7 },
  smoke: { size: 1_000, flagged: 100, latency: 2, rounds: 1 },
};

/** What both backends share: the simulator, SNS, and one scheduled time after another. */
interface Shared {
  source: RuntimeSource;
  sns: () => SNSClient;
  topicArn: string;
  rounds: number;
  /** KEB's latency per request, ms. */
  latency: number;
  /** A scheduled time near the clock (a run that writes refuses one far from it), never reused. */
  at: () => string;
  report: Report;
}

/**
 * `npm run bench -- audit`: per audit run, a steady run (nothing changed since the last run)
 * against listing alone, on dynalite and on DynamoDB Local; and the AWS requests of a first and a
 * steady run against a naive audit.
 */
export async function benchAudit(options: BenchOptions = {}): Promise<boolean> {
  const p = options.smoke ? SIZES.smoke : SIZES.full;
  const report = new Report(options);
  const say = report.say;
  say(
    `Audit benchmark (node ${process.version}; simulator and DynamoDB in child processes, fauxqs for SNS; ${p.rounds} rounds, medians)`,
  );
  say(
    `fleet ${p.size} runtimes, ${p.flagged} flagged, ${p.latency} ms KEB latency per request, concurrency ${CONCURRENCY}`,
  );
  const sim = await startChildSim({ size: p.size, flagged: p.flagged, latency: p.latency });
  const sqs = await startFauxqs({ port: 0, host: "127.0.0.1", logger: false });
  const snsClients: SNSClient[] = [];
  const sns = (): SNSClient => {
    const c = new SNSClient({ endpoint: `http://127.0.0.1:${sqs.port}`, region: "us-east-1", credentials });
    snsClients.push(c);
    return c;
  };
  try {
    const source = new KebClient({
      baseUrl: sim.url,
      transport: new KebTransport(),
      tokenProvider: new StaticTokenProvider("bench"),
    });
    const topicArn = (await sns().send(new CreateTopicCommand({ Name: "alerts" }))).TopicArn as string;
    let second = 0;
    const base = Date.now() - 3_600_000;
    const at = (): string => new Date(base + 1_000 * second++).toISOString();
    const shared: Shared = { source, sns, topicArn, rounds: p.rounds, latency: p.latency, at, report };
    // Warm-up: sockets, the simulator's caches, and the JIT: a warm Lambda's code is optimised by
    // its earlier runs, and a page's parsing settles only after some hundreds of pages.
    for (let i = 0; i < WARM_UP; i++) for (const audit of AUDITS) await listOnly(source, audit);
    const backends = await benchDynamos(["audit-ours", "audit-naive"], options, say);
    for (const [i, start] of backends.entries()) {
      const dynamo = await start();
      try {
        say(`[${dynamo.name}]`);
        await benchOn(dynamo, shared, i === 0);
      } finally {
        await dynamo.stop();
      }
    }
  } finally {
    for (const c of snsClients) c.destroy();
    await sqs.stop();
    await sim.stop();
  }
  return report.ok;
}

/** Listing alone, classifying each page as the audit does, but no snapshot, diff or commit. */
function listOnly(source: RuntimeSource, audit: KebAuditDefinition) {
  return scanAll(source, audit.queries, {
    concurrency: CONCURRENCY,
    retain: false,
    onPage: (runtimes) => {
      for (const r of runtimes) audit.classify(r);
    },
  });
}

/** The first run, the steady rounds and (on the first backend) the naive audit, on one backend. */
async function benchOn(dynamo: BenchDynamo, s: Shared, naiveToo: boolean): Promise<void> {
  const { report } = s;
  const say = report.say;
  const ddb = dynamo.client();
  const oursDdb = countRequests(ddb);
  const ourSns = s.sns();
  const oursSns = countRequests(ourSns);
  const deps: AuditRunDeps = {
    ports: {
      audits: testAudits({ client: s.source, concurrency: CONCURRENCY }),
      store: new DynamoAuditStore({ client: ddb, tableName: "audit-ours" }),
      reports: new DynamoReportStore({ client: ddb, tableName: "audit-ours" }),
      publisher: new SnsAlertPublisher({ client: ourSns, topicArn: s.topicArn }),
    },
  };
  const aws = (): number => sumOf(oursDdb, /./) + sumOf(oursSns, /./);
  // A transaction counts as one request (DynamoDB Local takes them; dynalite gets the writes one by one).
  const writes = (): number => sumOf(oursDdb, /^(Put|Delete|Update|BatchWrite|TransactWrite)/);
  const naive = naiveToo ? naiveRunner(dynamo, s) : undefined;

  oursDdb.clear();
  oursSns.clear();
  const first = [];
  for (const audit of AUDITS) first.push(await runAudit(deps, { audit: audit.name, scheduledTime: s.at() }));
  const firstRequests = aws();
  const firstWrites = writes();
  say(
    `first run: ${first.map((r) => `${r.audit} ${r.flagged} flagged, ${r.transitions.length} transitions, ${r.notified.messages} message(s)`).join("; ")}`,
  );
  if (naive) {
    const naiveFirst = await naive();
    const ratio = naiveFirst / firstRequests;
    say(
      `  AWS requests: ours ${firstRequests} (DynamoDB writes ${firstWrites}), naive ${naiveFirst}; ratio ${fmt(ratio)}x ${report.bar(ratio, ">=", 10)}`,
    );
  }

  // Per audit and round: listing alone, a steady run of the store kept between runs (a warm
  // Lambda's), and one of a new store (a new container, which keeps nothing yet), each run between
  // two listings (list, warm, list, cold, list) so that drift of the shared machine's load during
  // a round moves both sides of each ratio alike; then one KEB request alone, three times, the
  // pager's yardstick measured in the same run.
  const times = new Map(
    AUDITS.map((a) => [
      a.name,
      {
        list: [] as number[],
        warm: [] as number[],
        cold: [] as number[],
        warmRatio: [] as number[],
        coldRatio: [] as number[],
        alone: [] as number[],
      },
    ]),
  );
  const pages = new Map<string, number>();
  const steadyRequests = { warm: 0, cold: 0 };
  let snapshotWrites = 0;
  let steadyWrites = 0;
  const listing = async (audit: KebAuditDefinition): Promise<number> => {
    const started = performance.now();
    const scans = await listOnly(s.source, audit);
    const ms = performance.now() - started;
    if (!scans.every((scan) => scan.complete)) throw new Error(`listing ${audit.name} was incomplete`);
    pages.set(
      audit.name,
      scans.reduce((n, scan) => n + scan.pages, 0),
    );
    return ms;
  };
  for (let round = 0; round < s.rounds; round++) {
    for (const audit of AUDITS) {
      const t = times.get(audit.name) as NonNullable<ReturnType<typeof times.get>>;
      let before = await listing(audit);
      t.list.push(before);
      for (const [kind, runDeps] of [
        ["warm", deps],
        [
          "cold",
          {
            ...deps,
            ports: { ...deps.ports, store: new DynamoAuditStore({ client: ddb, tableName: "audit-ours" }) },
          },
        ],
      ] as const) {
        oursDdb.clear();
        oursSns.clear();
        const started = performance.now();
        const run = await runAudit(runDeps, { audit: audit.name, scheduledTime: s.at() });
        const ms = performance.now() - started;
        const after = await listing(audit);
        t.list.push(after);
        t[kind].push(ms);
        t[kind === "warm" ? "warmRatio" : "coldRatio"].push(ms / ((before + after) / 2));
        before = after;
        if (run.transitions.length) throw new Error(`steady run of ${audit.name} had transitions`);
        steadyRequests[kind] = Math.max(steadyRequests[kind], aws());
        snapshotWrites = Math.max(
          snapshotWrites,
          run.writes.snapshot + run.writes.deleted + sumOf(oursDdb, /^BatchWrite/),
        );
        steadyWrites = Math.max(steadyWrites, writes());
      }
      // One full page of the audit's first query at a time: what one request costs here.
      for (let page = 1; page <= 3; page++) {
        const started = performance.now();
        await s.source.listPage({ ...audit.queries[0], page, pageSize: 100, operationDetail: "last" });
        t.alone.push(performance.now() - started);
      }
    }
  }
  say(
    `per audit run, medians of ${s.rounds} rounds (ratios: the median of the rounds' ratios, each run to the mean of the listings just before and after it):`,
  );
  let warmWorst = 0;
  let coldWorst = 0;
  let pagerWorst = 0;
  for (const audit of AUDITS) {
    const t = times.get(audit.name) as NonNullable<ReturnType<typeof times.get>>;
    const [list, warm, cold, alone] = [median(t.list), median(t.warm), median(t.cold), median(t.alone)];
    const [warmRatio, coldRatio] = [median(t.warmRatio), median(t.coldRatio)];
    warmWorst = Math.max(warmWorst, warmRatio);
    coldWorst = Math.max(coldWorst, coldRatio);
    const n = pages.get(audit.name) ?? 0;
    const serial = Math.ceil(n / CONCURRENCY);
    // No pager can list faster than ceil(pages/concurrency) requests each as long as one alone.
    const pager = list / (serial * alone);
    pagerWorst = Math.max(pagerWorst, pager);
    say(
      `  ${audit.name}: listing alone ${fmt(list)} ms (${n} pages; rounds ${spread(t.list)}); one request alone ${fmt(alone)} ms (${fmt(alone / s.latency, 2)}x the latency); pager ${fmt(pager, 2)}x ceil(${n}/${CONCURRENCY}) x one request`,
    );
    say(
      `    steady run ${fmt(warm)} ms, ${fmt(warmRatio, 2)}x listing (rounds ${spread(t.warm)}; ratios ${t.warmRatio.map((r) => fmt(r, 2)).join(", ")})`,
    );
    say(
      `    steady run of a new store (a new container: reads the snapshot's fingerprint) ${fmt(cold)} ms, ${fmt(coldRatio, 2)}x listing (rounds ${spread(t.cold)}; ratios ${t.coldRatio.map((r) => fmt(r, 2)).join(", ")})`,
    );
  }
  say(
    `pager / ceil(pages/concurrency) x one request alone, worst audit: ${fmt(pagerWorst, 2)} ${report.bar(pagerWorst, "<=", 1.1, "1.10")}`,
  );
  say(
    `steady run / listing alone, worst audit: ${fmt(warmWorst, 2)} ${report.bar(warmWorst, "<=", 1.15, "1.15")}`,
  );
  say(
    `steady run of a new store / listing alone, worst audit: ${fmt(coldWorst, 2)} ${report.bar(coldWorst, "<=", 1.25, "1.25")}`,
  );
  say(
    `  snapshot item writes: ${snapshotWrites} ${report.bar(snapshotWrites, "=", 0)}; DynamoDB writes in all: ${steadyWrites} ${report.bar(steadyWrites, "<=", 3)}`,
  );
  if (naive) {
    const naiveSteady = await naive();
    const both = steadyRequests.warm * AUDITS.length;
    const ratio = naiveSteady / both;
    say(
      `  AWS requests (both audits): ours at most ${both} (a new store: ${steadyRequests.cold * AUDITS.length}), naive ${naiveSteady}; ratio ${fmt(ratio)}x ${report.bar(ratio, ">=", 10)}`,
    );
  }
}

/** The naive audit of both audits on its own table; each call returns the AWS requests it sent. */
function naiveRunner(dynamo: BenchDynamo, s: Shared): () => Promise<number> {
  const ddb = dynamo.client();
  const sns = s.sns();
  const ddbCalls = countRequests(ddb);
  const snsCalls = countRequests(sns);
  return async () => {
    ddbCalls.clear();
    snsCalls.clear();
    for (const audit of AUDITS) {
      await naiveAudit({ source: s.source, ddb, sns, topicArn: s.topicArn, table: "audit-naive" }, audit);
    }
    return sumOf(ddbCalls, /./) + sumOf(snsCalls, /./);
  };
}
