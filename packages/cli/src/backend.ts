import { join, resolve } from "node:path";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import {
  type AlertPublisher,
  type AuditStateStore,
  type CommandStore,
  runReportCommand,
} from "@fleet-auditor/audit";
import {
  DynamoAuditStore,
  DynamoIncidentHistory,
  DynamoReportStore,
  DynamoSilenceStore,
  DynamoStatusStore,
  documentClient,
  hasEmbeddedStore,
  startEmbeddedDynamo,
} from "@fleet-auditor/store";
import { ConfigError } from "@fleet-auditor/use-cases";
import type { CliEnv } from "./env.ts";
import { NoStoreError } from "./errors.ts";
import { checkMessageVariables, openPublisher } from "./message-backend.ts";

/** A DynamoDB table the CLI works on, wherever it lives. */
interface OpenTable {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** One line for humans: where the data is. */
  description: string;
  close(): Promise<void>;
}

const LOCAL_AUDIT_TABLE = "fleet-auditor";
const LOCAL_STATUS_TABLE = "fleet-auditor-status";

/**
 * The tables of the embedded store under a state directory (`<dir>/dynamodb`): what a program
 * that writes there for the CLI to read (the demo) names them.
 */
export const EMBEDDED_TABLES = { audit: LOCAL_AUDIT_TABLE, status: LOCAL_STATUS_TABLE } as const;

/**
 * What a command does with the store: `read` only looks (the embedded store must exist already:
 * `NoStoreError` otherwise, and nothing is created), `update` changes what must already be in it
 * (a silence to expire, an incident to acknowledge, a lease to release: the store must exist as
 * for `read`), `write` may create it, `preview` (a dry run) reads the store if there is one and
 * otherwise works on an empty one in memory, creating nothing.
 */
export type StoreUse = "read" | "update" | "write" | "preview";

/**
 * The named AWS table when one is given (credentials and endpoints from the SDK's usual
 * variables, `AWS_ENDPOINT_URL_*` included); otherwise a table of the embedded DynamoDB-compatible
 * store persisted under `stateDir`: created if missing when `use` is `write`, `NoStoreError` when
 * it is `read` or `update`.
 */
async function openTable(
  stateDir: string,
  awsTable: string | undefined,
  kind: "audit" | "status",
  use: StoreUse,
): Promise<OpenTable> {
  if (awsTable) {
    const raw = new DynamoDBClient({});
    return {
      client: documentClient(raw),
      tableName: awsTable,
      description: `DynamoDB table ${awsTable}`,
      close: async () => raw.destroy(),
    };
  }
  const tableName = kind === "audit" ? LOCAL_AUDIT_TABLE : LOCAL_STATUS_TABLE;
  const dir = join(stateDir, "dynamodb");
  const exists = use === "write" || hasEmbeddedStore(dir);
  if ((use === "read" || use === "update") && !exists) throw new NoStoreError(resolve(stateDir));
  // Both tables in the one embedded store: the applications audit reads one and writes the other.
  const db = await startEmbeddedDynamo({
    ...(exists ? { dir } : {}),
    tables: [LOCAL_AUDIT_TABLE],
    statusTables: [LOCAL_STATUS_TABLE],
  });
  return {
    client: db.client,
    tableName,
    description: exists
      ? `embedded store in ${stateDir}`
      : `an empty store in memory (no embedded store in ${resolve(stateDir)})`,
    close: () => db.close(),
  };
}

/** Where a CLI run keeps its state and sends its messages. */
export interface Backend {
  /** The Application status table, for the applications audit (opened on request). */
  status?: DynamoStatusStore;
  store: AuditStateStore;
  reports: DynamoReportStore;
  /** Where the commands messages suggest act: this backend's store. */
  commandStore: CommandStore;
  silences: DynamoSilenceStore;
  publisher: AlertPublisher;
  /**
   * The topics besides the alerts' that take messages: on AWS, those the variables name; the
   * embedded outbox takes every one (each line says where it would go).
   */
  topics: { incidents: boolean; critical: boolean };
  /** One line for humans: where state and messages go. */
  description: string;
  close(): Promise<void>;
}

/**
 * AWS when `AUDIT_TABLE` and `ALERT_TOPIC_ARN` are set; otherwise the embedded stack: the store
 * under `stateDir` and `<stateDir>/outbox.jsonl` for messages.
 */
export async function openBackend(
  stateDir: string,
  env: CliEnv,
  options: { status?: boolean; use?: Extract<StoreUse, "write" | "preview"> } = {},
): Promise<Backend> {
  checkMessageVariables(env);
  if (options.status && env.AUDIT_TABLE && !env.STATUS_TABLE) {
    // An empty local table read as complete would resolve every finding in the AWS snapshot.
    throw new ConfigError([
      {
        path: "STATUS_TABLE",
        message: "the applications audit on AWS (AUDIT_TABLE) needs the status table too",
      },
    ]);
  }
  const table = await openTable(stateDir, env.AUDIT_TABLE, "audit", options.use ?? "write");
  // The status table beside it: on AWS with STATUS_TABLE, else in the same embedded store.
  const statusTable = !options.status
    ? undefined
    : env.STATUS_TABLE
      ? await openTable(stateDir, env.STATUS_TABLE, "status", options.use ?? "write")
      : { ...table, tableName: LOCAL_STATUS_TABLE, close: async () => undefined };
  const messages = openPublisher(stateDir, env);
  return {
    ...(statusTable ? { status: new DynamoStatusStore(statusTable) } : {}),
    store: new DynamoAuditStore(table),
    reports: new DynamoReportStore(table),
    commandStore: commandStoreOf(stateDir, env),
    silences: new DynamoSilenceStore(table),
    publisher: messages.publisher,
    topics: {
      incidents: messages.topics.includes("incidents"),
      critical: messages.topics.includes("critical"),
    },
    description: `${table.description}, ${messages.description}`,
    close: async () => {
      messages.close();
      await statusTable?.close();
      await table.close();
    },
  };
}

/**
 * The silences of the audit table: DynamoDB with `AUDIT_TABLE`, else the embedded store (which
 * `use` `read` or `update` never creates).
 */
export async function openSilences(
  stateDir: string,
  env: CliEnv,
  use: StoreUse,
): Promise<{
  silences: DynamoSilenceStore;
  /** The audits' snapshots: where an open incident's `groupBy` values are kept. */
  snapshots: DynamoAuditStore;
  description: string;
  close(): Promise<void>;
}> {
  const table = await openTable(stateDir, env.AUDIT_TABLE, "audit", use);
  return {
    silences: new DynamoSilenceStore(table),
    snapshots: new DynamoAuditStore(table),
    description: table.description,
    close: table.close,
  };
}

/**
 * The run ledger and reports of the audit table: DynamoDB with `AUDIT_TABLE`, else the
 * embedded store (which `use` `read` or `update` never creates).
 */
export async function openRuns(
  stateDir: string,
  env: CliEnv,
  use: StoreUse,
): Promise<{
  store: DynamoAuditStore;
  reports: DynamoReportStore;
  description: string;
  close(): Promise<void>;
}> {
  const table = await openTable(stateDir, env.AUDIT_TABLE, "audit", use);
  return {
    store: new DynamoAuditStore(table),
    reports: new DynamoReportStore(table),
    description: table.description,
    close: table.close,
  };
}

/**
 * The incident history of the audit table: DynamoDB with `AUDIT_TABLE`, else the embedded
 * store (which `use` `read` or `update` never creates).
 */
export async function openIncidents(
  stateDir: string,
  env: CliEnv,
  use: StoreUse,
): Promise<{
  history: DynamoIncidentHistory;
  store: DynamoAuditStore;
  silences: DynamoSilenceStore;
  description: string;
  close(): Promise<void>;
}> {
  const table = await openTable(stateDir, env.AUDIT_TABLE, "audit", use);
  return {
    history: new DynamoIncidentHistory(table),
    store: new DynamoAuditStore(table),
    silences: new DynamoSilenceStore(table),
    description: table.description,
    close: table.close,
  };
}

/**
 * Where the commands a CLI run's messages suggest act: the AWS tables (and region) the variables
 * name, else the state directory, absolute, so that a command pasted in another directory acts
 * on the same store.
 */
export function commandStoreOf(
  stateDir: string,
  env: Pick<CliEnv, "AUDIT_TABLE" | "STATUS_TABLE" | "AWS_REGION">,
): CommandStore {
  if (!env.AUDIT_TABLE) return { stateDir: resolve(stateDir) };
  return {
    ...(env.AWS_REGION ? { region: env.AWS_REGION } : {}),
    table: env.AUDIT_TABLE,
    ...(env.STATUS_TABLE ? { statusTable: env.STATUS_TABLE } : {}),
  };
}

/**
 * The command that shows a run's report from the store a command uses, quoted; when a value
 * cannot be pasted safely (a state directory with a line break), the list of runs instead.
 */
export function reportCommandIn(
  stateDir: string,
  env: Pick<CliEnv, "AUDIT_TABLE" | "STATUS_TABLE" | "AWS_REGION">,
): (runId: string) => string {
  const store = commandStoreOf(stateDir, env);
  return (runId) => runReportCommand(runId, store) || "fleet-auditor runs list";
}

/**
 * The Application status table: DynamoDB with `STATUS_TABLE`, else the embedded store (which
 * `use` `read` or `update` never creates).
 */
export async function openStatusBackend(
  stateDir: string,
  env: CliEnv,
  use: StoreUse,
): Promise<{ store: DynamoStatusStore; description: string; close(): Promise<void> }> {
  const table = await openTable(stateDir, env.STATUS_TABLE, "status", use);
  return { store: new DynamoStatusStore(table), description: table.description, close: table.close };
}
