import { type CreateTableCommandInput, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { SNSClient } from "@aws-sdk/client-sns";
import { PutCommand, paginateScan, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { RunSummary } from "@fleet-auditor/audit";
import { AuditFunctionEnvSchema } from "@fleet-auditor/keb-audits";
import { applicationTraffic } from "@fleet-auditor/keb-kubeedge-sim";
import { ApplicationsAuditEnvSchema } from "@fleet-auditor/kubeedge-audit";
import {
  auditTableDefinition,
  DynamoStatusStore,
  documentClient,
  ensureTable,
  STATUS_INDEXES,
} from "@fleet-auditor/store";
import {
  ApplicationsEnvSchema,
  ingestBatch,
  parseConfig,
  type RunLogger,
  runAudit,
} from "@fleet-auditor/use-cases";
import { type AuditClients, applicationsAuditDeps, auditDeps } from "../../functions/lib/audit-deps.ts";
import { batchesOf, delayedResponses } from "./apps-capacity.ts";
import { ConsumedCapacity, type Units } from "./consumed-capacity.ts";
import { SnsPublishes } from "./sns-publishes.ts";

/** Where the measured code sends: DynamoDB Local, SNS on fauxqs with the stage's topics, KEB. */
export interface CostStack {
  dynamoEndpoint: string;
  /** DynamoDB Local keeps a database per access key: this run's own. */
  accessKeyId: string;
  snsEndpoint: string;
  topics: { alerts: string; critical: string; incidents: string };
  kebUrl: string;
}

/** A KEB audit: its first run (every flagged runtime fires) and its steady runs. */
export interface KebAuditMeasure {
  audit: string;
  flagged: number;
  pages: number;
  first: { units: Units; transitions: number; publishes: SnsPublishes["tally"] };
  /** A steady run of a warm container (the store kept between runs). */
  warm: { units: Units; requests: number };
  /** A steady run of a new container (reads the snapshot's fingerprint, one item). */
  cold: { units: Units; requests: number };
}

/** Application messages through the real ingest, batch by batch. */
export interface IngestMeasure {
  messages: number;
  batches: number;
  /** By `table` and `table/index`. */
  units: Map<string, Units>;
  refused: number;
  /** Handler CPU per message, ms (the process's user and system time over the ingest). */
  cpuMsPerMessage: number;
}

/** A steady applications audit run: its units, its requests and the watched rows it read. */
export interface AppsAuditMeasure {
  units: Units;
  requests: number;
  rowsRead: number;
}

/** `apps status --node` on the table as deployed: what it was charged, and the table it read. */
export interface NodeQueryMeasure {
  /** The index it read, or `scan` (a stage without `byNodeId`). */
  read: string;
  units: Units;
  requests: number;
  ms: number;
  rowsFound: number;
  tableRows: number;
  tableBytes: number;
}

const AUDIT_TABLE = "cost-audit";
export const STATUS_TABLE = "cost-status";
const quiet: RunLogger = { info: () => undefined, warn: () => undefined };

/** The clients the measured code gets, each counting what it sends. */
class CountedClients {
  readonly raw: DynamoDBClient;
  readonly capacity: ConsumedCapacity;
  readonly publishes: SnsPublishes;
  readonly clients: AuditClients;

  constructor(stack: CostStack) {
    const credentials = { accessKeyId: stack.accessKeyId, secretAccessKey: "cost" };
    this.raw = new DynamoDBClient({ endpoint: stack.dynamoEndpoint, region: "us-east-1", credentials });
    const dynamo = documentClient(this.raw);
    const sns = new SNSClient({ endpoint: stack.snsEndpoint, region: "us-east-1", credentials });
    this.capacity = new ConsumedCapacity(dynamo);
    this.publishes = new SnsPublishes(sns);
    this.clients = { dynamo, sns };
  }

  destroy(): void {
    this.raw.destroy();
    this.clients.sns.destroy();
  }
}

/**
 * Runs the code a stage runs, wired as the functions wire it (`auditDeps`,
 * `applicationsAuditDeps`, `ingestBatch` on `DynamoStatusStore`), with SDK clients that count
 * the DynamoDB units each request was charged and each SNS publish.
 */
export class CostMeasure {
  readonly #stack: CostStack;
  readonly #counted: CountedClients;
  #second = 0;
  readonly #base = Date.now() - 3_600_000;

  constructor(stack: CostStack) {
    this.#stack = stack;
    this.#counted = new CountedClients(stack);
  }

  /**
   * The audit table, and the status table as the priced stage declares it (`tableAsDeclared`):
   * its indexes as deployed, the retiring ones where the stage keeps them.
   */
  async createTables(status: CreateTableCommandInput): Promise<void> {
    await ensureTable(this.#counted.raw, auditTableDefinition(AUDIT_TABLE));
    await ensureTable(this.#counted.raw, { ...status, TableName: STATUS_TABLE });
  }

  /** A KEB audit's first run, a steady run of a warm container and one of a new container. */
  async kebAudit(audit: string): Promise<KebAuditMeasure> {
    const env = parseConfig(AuditFunctionEnvSchema, {
      ...this.#auditEnv(),
      KEB_URL: this.#stack.kebUrl,
      KEB_TOKEN: "cost",
    });
    const deps = auditDeps(env, quiet, undefined, this.#counted.clients);
    const first = await this.#run(() => runAudit(deps, { audit, scheduledTime: this.#at() }));
    const warm = await this.#run(() => runAudit(deps, { audit, scheduledTime: this.#at() }));
    const fresh = auditDeps(env, quiet, undefined, this.#counted.clients);
    const cold = await this.#run(() => runAudit(fresh, { audit, scheduledTime: this.#at() }));
    return {
      audit,
      flagged: first.summary.flagged,
      pages: first.summary.queries.reduce((n, q) => n + q.pages, 0),
      first: {
        units: first.units,
        transitions: first.summary.transitions.length,
        publishes: first.publishes,
      },
      warm: { units: warm.units, requests: warm.requests },
      cold: { units: cold.units, requests: cold.requests },
    };
  }

  /**
   * `messages` Application messages (a request and a response each, 10 % rejected, over `nodes`
   * nodes, header times ending now), each response `delay` messages after its request, through
   * the ingest in batches of `batch`.
   */
  async ingest(p: { messages: number; nodes: number; batch: number; delay: number }): Promise<IngestMeasure> {
    const applications = p.messages / 2;
    const traffic = applicationTraffic({
      applications,
      nodes: p.nodes,
      seed: 22,
      distinct: true,
      // About a second between Applications: the last ones in the applications audit's window.
      start: Date.now() - applications * 1_100,
    });
    const batches = batchesOf(delayedResponses(traffic, p.delay), p.batch);
    const env = parseConfig(ApplicationsEnvSchema, { STATUS_TABLE });
    const store = new DynamoStatusStore({
      client: this.#counted.clients.dynamo,
      tableName: STATUS_TABLE,
      finishedTtlHours: env.FINISHED_TTL_HOURS,
      unfinishedTtlDays: env.UNFINISHED_TTL_DAYS,
      quarantineTtlDays: env.QUARANTINE_TTL_DAYS,
    });
    this.#counted.capacity.clear();
    const cpu = process.cpuUsage();
    for (const [i, batch] of batches.entries()) {
      const { counts } = await ingestBatch(
        { store },
        batch.map((body, j) => ({ messageId: `cost-${i}-${j}`, body })),
      );
      if (counts.failed > 0) throw new Error(`batch ${i}: ${counts.failed} write(s) failed`);
    }
    const used = process.cpuUsage(cpu);
    const { units, refused } = this.#counted.capacity;
    return {
      messages: traffic.length,
      batches: batches.length,
      units: new Map(units),
      refused,
      // An upper bound: the process also ran the SDK and waited on the emulator.
      cpuMsPerMessage: (used.user + used.system) / 1000 / traffic.length,
    };
  }

  /** The applications audit's first run, then a steady one, measured. */
  async applicationsAudit(): Promise<AppsAuditMeasure> {
    const env = parseConfig(ApplicationsAuditEnvSchema, { ...this.#auditEnv(), STATUS_TABLE });
    const deps = applicationsAuditDeps(env, quiet, this.#counted.clients);
    await runAudit(deps, { audit: "applications", scheduledTime: this.#at() });
    const steady = await this.#run(() =>
      runAudit(deps, { audit: "applications", scheduledTime: this.#at() }),
    );
    return {
      units: steady.units,
      requests: steady.requests,
      rowsRead: steady.summary.queries.reduce((n, q) => n + q.listed, 0),
    };
  }

  /**
   * `apps status --node` for the node of one row, as the query function runs it on the table the
   * stage declares: `byNodeId` and the rows by id, or, without it, a scan filtered by node.
   */
  async nodeQuery(): Promise<NodeQueryMeasure> {
    const { dynamo } = this.#counted.clients;
    let tableRows = 0;
    let tableBytes = 0;
    let node = "";
    for await (const page of paginateScan({ client: dynamo }, { TableName: STATUS_TABLE })) {
      for (const item of page.Items ?? []) {
        tableRows++;
        tableBytes += Buffer.byteLength(JSON.stringify(item));
        node ||= typeof item.node === "string" ? item.node : "";
      }
    }
    const store = new DynamoStatusStore({ client: dynamo, tableName: STATUS_TABLE });
    const seen = new Set<string>();
    const recorder = "nodeQueryReads";
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        const index = (args.input as { IndexName?: string }).IndexName;
        seen.add(index ?? (context.commandName === "ScanCommand" ? "scan" : "table"));
        return next(args);
      },
      { step: "initialize", name: recorder },
    );
    this.#counted.capacity.clear();
    const started = performance.now();
    try {
      const rows = await store.query({ node }, new Date());
      const ms = performance.now() - started;
      const { capacity } = this.#counted;
      return {
        read: seen.has("scan") ? "scan" : STATUS_INDEXES.byNode,
        units: capacity.all(),
        requests: capacity.requests,
        ms,
        rowsFound: rows.length,
        tableRows,
        tableBytes,
      };
    } finally {
      dynamo.middlewareStack.remove(recorder);
    }
  }

  /**
   * Whether DynamoDB Local charges an index key change as DynamoDB does, a delete and a put: the
   * units a sort-key change charged `byWatch` (an open row's message time moving).
   */
  async indexKeyChangeUnits(): Promise<number> {
    const { dynamo } = this.#counted.clients;
    const id = "cost-index-check";
    await dynamo.send(new PutCommand({ TableName: STATUS_TABLE, Item: { id, wk: "open#0", ts: 1 } }));
    this.#counted.capacity.clear();
    await dynamo.send(
      new UpdateCommand({
        TableName: STATUS_TABLE,
        Key: { id },
        UpdateExpression: "SET ts = :ts",
        ExpressionAttributeValues: { ":ts": 2 },
      }),
    );
    return this.#counted.capacity.of(`${STATUS_TABLE}/${STATUS_INDEXES.watch}`).write;
  }

  destroy(): void {
    this.#counted.destroy();
  }

  #auditEnv(): Record<string, string> {
    const { topics } = this.#stack;
    return {
      AUDIT_TABLE,
      ALERT_TOPIC_ARN: topics.alerts,
      CRITICAL_TOPIC_ARN: topics.critical,
      INCIDENT_TOPIC_ARN: topics.incidents,
      LEASE_MINUTES: "6",
      LANDSCAPE: "cost",
      AWS_REGION: "eu-central-1",
    };
  }

  /** A scheduled time near the clock (a run that writes refuses one far from it), never reused. */
  #at(): string {
    return new Date(this.#base + 1_000 * this.#second++).toISOString();
  }

  async #run(
    run: () => Promise<RunSummary>,
  ): Promise<{ summary: RunSummary; units: Units; requests: number; publishes: SnsPublishes["tally"] }> {
    const { capacity, publishes } = this.#counted;
    capacity.clear();
    publishes.clear();
    const summary = await run();
    if (summary.status !== "completed" || !summary.complete)
      throw new Error(`${summary.audit} run ${summary.status}, complete ${summary.complete}`);
    return {
      summary,
      units: capacity.all(),
      requests: capacity.requests,
      publishes: { ...publishes.tally },
    };
  }
}
