import { CreateTopicCommand, SNSClient } from "@aws-sdk/client-sns";
import { startFauxqs } from "fauxqs";
import { stageRegion } from "../../infra/stage-config.ts";
import { launchDynamoLocal } from "../helpers/dynamo-local.ts";
import { recordSstConfig } from "../helpers/sst-stand-ins.ts";
import { runHandlers } from "./cost-handlers.ts";
import { customMetrics, type Measured, price } from "./cost-lines.ts";
import { CostMeasure, type CostStack, type KebAuditMeasure, STATUS_TABLE } from "./cost-measure.ts";
import {
  ASSUMED,
  applicationTrafficModel,
  cost,
  HOURS,
  type Line,
  priceNote,
  REFERENCE,
  total,
} from "./cost-model.ts";
import { tableAsDeclared } from "./deployed-table.ts";
import { type BenchOptions, javaPresent, Report } from "./kit.ts";
import { PRICES } from "./prices.ts";
import { startChildSim } from "./sim-child.ts";

/** The fleet measured (the reference's shape, scaled at smoke size) and the Application sample. */
const SIZES = {
  full: { runtimes: 100_000, flagged: 7_000, messages: 4_000, nodes: 10_000, delay: 1_000 },
  smoke: { runtimes: 700, flagged: 35, messages: 120, nodes: 60, delay: 50 },
};
/**
 * The goals. The Application path's is held at eu-central-1's price, where the reference stage is
 * deployed ($0.7625 a million write units: at most 2.10 write units a message), over the status
 * table's indexes as that stage declares them.
 */
const GOALS = {
  auditsUsd: 3,
  writesPerMillionUsd: 1.6,
  writesPriceRegion: "eu-central-1",
  customMetrics: 15,
};
const KEB_AUDITS = ["failing", "expired"] as const;

const n = (x: number, digits = 0): string =>
  x.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const usd = (x: number): string => `$${x.toFixed(2)}`;

/**
 * `npm run bench -- cost`: a reference month's bill from the requests the code really makes. The
 * KEB audits, the ingest and the applications audit run as the functions wire them on DynamoDB
 * Local (units per table and index) and fauxqs (SNS publishes in 64 KB chunks); the functions
 * themselves run in this process for their logs and EMF (custom metrics); sst.config.ts runs
 * against stand-ins for the alarms and memory sizes; SQS polling and Lambda duration come from a
 * model it prints. Fails when a goal is missed.
 */
export async function benchCost(options: BenchOptions = {}): Promise<boolean> {
  const report = new Report(options);
  const say = report.say;
  const p = options.smoke ? SIZES.smoke : SIZES.full;
  // The stage the reference month is priced for: its region from stages.json, as the deploy picks it.
  const region = stageRegion("prod");
  const prices =
    PRICES.get(region) ?? (PRICES.get("eu-central-1") as NonNullable<ReturnType<typeof PRICES.get>>);
  say(
    `Cost benchmark (node ${process.version}): a reference month (${HOURS} hours) of stage region ${region}`,
  );
  say(
    `  prices: ${priceNote(prices)}${PRICES.has(region) ? "" : `; ${region} has no table: priced as eu-central-1`}`,
  );
  if (!options.dynamoLocal && !(await javaPresent())) {
    say("  DynamoDB Local: left out (no java on PATH); nothing measured");
    return false;
  }
  const m = await measure(p, options, say);
  const lines = price(m, prices);
  printLines(lines, say);
  return goals(lines, m, report) && report.ok;
}

async function measure(
  p: (typeof SIZES)["full"],
  options: BenchOptions,
  say: (line: string) => void,
): Promise<Measured> {
  const local = options.dynamoLocal
    ? { endpoint: options.dynamoLocal.endpoint, stop: async () => undefined }
    : await launchDynamoLocal();
  const sqs = await startFauxqs({ port: 0, host: "127.0.0.1", logger: false });
  const sim = await startChildSim({ size: p.runtimes, flagged: p.flagged, latency: 0, expiredShare: 2 / 7 });
  const credentials = { accessKeyId: "cost", secretAccessKey: "cost" };
  const snsEndpoint = `http://127.0.0.1:${sqs.port}`;
  const sns = new SNSClient({ endpoint: snsEndpoint, region: "us-east-1", credentials });
  const topic = async (Name: string) => (await sns.send(new CreateTopicCommand({ Name }))).TopicArn as string;
  const stack: CostStack = {
    dynamoEndpoint: local.endpoint,
    accessKeyId: `cost${Date.now()}`,
    snsEndpoint,
    topics: {
      alerts: await topic("alerts"),
      critical: await topic("critical"),
      incidents: await topic("incidents"),
    },
    kebUrl: sim.url,
  };
  const costs = new CostMeasure(stack);
  try {
    const started = performance.now();
    const stages: string[] = [];
    let lap = started;
    const stage = (name: string): void => {
      const now = performance.now();
      stages.push(`${name} ${((now - lap) / 1000).toFixed(1)} s`);
      lap = now;
    };
    // The reference stage as sst.config.ts declares it: its alarms, memory sizes and the status
    // table's indexes as deployed (the retiring ones only where the stage keeps them).
    const prod = await recordSstConfig("prod");
    await costs.createTables(
      tableAsDeclared(prod.named("sst.aws.Dynamo", "ApplicationStatus"), STATUS_TABLE),
    );
    say(
      `  status table indexes as deployed: ${Object.keys(prod.named("sst.aws.Dynamo", "ApplicationStatus").args.globalIndexes as object).join(", ")}`,
    );
    const indexKeyChange = await costs.indexKeyChangeUnits();
    const keb: KebAuditMeasure[] = [];
    stage("tables");
    for (const audit of KEB_AUDITS) keb.push(await costs.kebAudit(audit));
    stage("KEB audits");
    const ingest = await costs.ingest({ messages: p.messages, nodes: p.nodes, batch: 50, delay: p.delay });
    stage("ingest");
    const appsAudit = await costs.applicationsAudit();
    stage("applications audit");
    const nodeQuery = await costs.nodeQuery();
    stage("node query");
    const samples = Object.assign({}, ...keb.map((k) => k.first.publishes.samples)) as Record<string, string>;
    let second = 0;
    const base = Date.now() - 1_800_000;
    const printed = await runHandlers(stack, {
      batch: applicationTrafficModel(1).batchSize,
      scheduledTime: () => new Date(base + 1_000 * second++).toISOString(),
      samples,
    });
    stage("handlers");
    const memoryMb = Object.fromEntries(
      prod.of("sst.aws.Function").map((f) => [f.name, Number.parseInt(String(f.args.memory ?? "1024"), 10)]),
    );
    say(
      `  measured: ${n(p.runtimes)} runtimes (${keb.map((k) => `${n(k.flagged)} ${k.audit}`).join(", ")}) on the KEB simulator, DynamoDB Local, SNS on fauxqs; ${n(ingest.messages)} Application messages in ${ingest.batches} batches (${stages.join(", ")})`,
    );
    return {
      keb,
      ingest,
      appsAudit,
      indexKeyChange,
      nodeQuery,
      printed,
      alarms: prod.of("aws.cloudwatch.MetricAlarm").length,
      memoryMb,
    };
  } finally {
    costs.destroy();
    sns.destroy();
    await sim.stop();
    await sqs.stop();
    await local.stop();
  }
}

const GROUPS: Record<Line["group"], string> = {
  keb: "KEB audits (failing every 15 minutes, expired hourly)",
  "apps-audit": "Applications audit (every 5 minutes)",
  "app-path": `Application path (${REFERENCE.messagesPerSecond} messages a second)`,
  observability: "Metrics, alarms, log archive",
};

function printLines(lines: Line[], say: (line: string) => void): void {
  for (const [group, title] of Object.entries(GROUPS) as Array<[Line["group"], string]>) {
    say(`  ${title}: ${usd(total(lines, group))} a month`);
    for (const l of lines.filter((x) => x.group === group)) {
      const unit =
        l.price.usd < 0.001
          ? `$${+(l.price.usd * 1e6).toFixed(4)} per million ${l.price.unit}`
          : `$${l.price.usd} per ${l.price.unit}`;
      say(
        `    ${l.name}: ${n(l.quantity, l.quantity < 10 ? 2 : 0)} x ${unit} = ${usd(cost(l))} (${l.basis})`,
      );
    }
  }
  say(`  total: ${usd(total(lines))} a month`);
}

function goals(lines: Line[], m: Measured, report: Report): boolean {
  const say = report.say;
  say("  measured per run or message:");
  for (const k of m.keb)
    say(
      `    ${k.audit}: ${n(k.flagged)} flagged, ${k.pages} pages; first run ${k.first.transitions} transitions, ${n(k.first.units.read, 1)} RRU, ${n(k.first.units.write, 1)} WRU, ${k.first.publishes.messages} SNS messages in ${k.first.publishes.chunks} chunks; steady run ${n(k.warm.units.read, 1)} RRU, ${n(k.warm.units.write, 1)} WRU (${k.warm.requests} requests); a new container's ${n(k.cold.units.read, 1)} RRU, ${n(k.cold.units.write, 1)} WRU`,
    );
  say(
    `    applications audit, steady run: ${n(m.appsAudit.units.read, 1)} RRU, ${n(m.appsAudit.units.write, 1)} WRU over ${m.appsAudit.rowsRead} watched rows (${m.appsAudit.requests} requests)`,
  );
  const perIndex = [...m.ingest.units].map(
    ([k, u]) => `${k.replace(`${STATUS_TABLE}`, "table")} ${(u.write / m.ingest.messages).toFixed(2)}`,
  );
  const wru = [...m.ingest.units].reduce((s, [, u]) => s + u.write, 0) / m.ingest.messages;
  say(
    `    Application message: ${wru.toFixed(2)} WRU (${perIndex.join(", ")}; ${m.ingest.refused} refused writes counted as 1 WRU each)`,
  );
  const q = m.nodeQuery;
  // A scan reads the whole table whatever it matches: its units grow with the table, not the
  // node. The reference's table: 5 Applications a second, finished ones kept 72 hours.
  const referenceRows = (REFERENCE.messagesPerSecond / 2) * 72 * 3_600;
  const referenceUnits = (q.units.read / Math.max(1, q.tableRows)) * referenceRows;
  const readPrice = PRICES.get(GOALS.writesPriceRegion)?.dynamoReadUnit.usd ?? 0;
  say(
    `    apps status --node, on the table as deployed (${q.read === "scan" ? "no byNodeId: a scan filtered by node" : "byNodeId, then the rows by id"}): ${n(q.units.read, 1)} RRU in ${q.requests} requests, ${n(q.ms)} ms, ${q.rowsFound} rows found among ${n(q.tableRows)} (${n(q.tableBytes / 1024)} KB as JSON)${q.read === "scan" ? `; the reference's ${n(referenceRows)} rows: about ${n(referenceUnits)} RRU, $${(referenceUnits * readPrice).toFixed(3)} a query at ${GOALS.writesPriceRegion}'s price` : ""}`,
  );
  for (const [name, p] of Object.entries(m.printed))
    say(`    log output, ${name}: ${n(p.bytes)} bytes in ${p.lines} lines`);
  say(
    `    DynamoDB Local charged an index sort-key change ${m.indexKeyChange} write units (DynamoDB: 2, a delete and a put; the figures rest on it) ${report.bar(m.indexKeyChange, "=", 2)}`,
  );
  say(
    `  not counted: writes DynamoDB Local does not report (a write its condition refused: counted as 1 WRU), TTL deletions (free), storage, PITR (prod only), data transfer, the Slack and pager functions (deployed only when asked; their delivery logs: above), KEB's side; free tiers left out`,
  );
  say(
    `  model: ${Object.entries(ASSUMED)
      .map(([k, v]) => `${k} ${v}`)
      .join(
        ", ",
      )}; reference: ${n(REFERENCE.runtimes)} runtimes (${n(REFERENCE.flagged.failing ?? 0)} failing, ${n(REFERENCE.flagged.expired ?? 0)} expired), runs a month ${Object.entries(
      REFERENCE.runs,
    )
      .map(([k, v]) => `${k} ${n(v)}`)
      .join(", ")}`,
  );
  const metrics = customMetrics(m.printed);
  say(`  custom metrics (${metrics.length}): ${metrics.join("; ")}`);
  say("  goals:");
  const audits = total(lines, "keb") + total(lines, "apps-audit");
  say(
    `    the audits (KEB and applications; everything but the Application traffic, metrics and alarms): ${usd(audits)} a month ${report.bar(audits, "<=", GOALS.auditsUsd, usd(GOALS.auditsUsd))}`,
  );
  const writes = lines.find((l) => l.name === "DynamoDB status table writes") as Line;
  const messages = REFERENCE.messagesPerSecond * HOURS * 3_600;
  const perMillion = (cost(writes) / messages) * 1e6;
  const unitsPerMessage = writes.quantity / messages;
  const basisPrice = PRICES.get(GOALS.writesPriceRegion)?.dynamoWriteUnit.usd ?? writes.price.usd;
  const atBasis = unitsPerMessage * basisPrice * 1e6;
  say(
    `    Application path, DynamoDB writes per million messages: ${usd(atBasis)} at ${GOALS.writesPriceRegion}'s $${(basisPrice * 1e6).toFixed(3)} per million WRU, the price the goal was set at (${unitsPerMessage.toFixed(2)} WRU a message; at this region's $${(writes.price.usd * 1e6).toFixed(4)}: ${usd(perMillion)}) ${report.bar(atBasis, "<=", GOALS.writesPerMillionUsd, usd(GOALS.writesPerMillionUsd))}`,
  );
  say(`    custom metrics: ${metrics.length} ${report.bar(metrics.length, "<=", GOALS.customMetrics)}`);
  return report.ok;
}
