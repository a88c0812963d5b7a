import { mkdirSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
} from "@aws-sdk/client-dynamodb";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { Level } from "level";
import { auditTableDefinition } from "./audit-table.ts";
import { documentClient } from "./document-client.ts";
import { StateDirDamagedError, StateDirInUseError } from "./errors.ts";
import { lockStateDir } from "./state-dir-lock.ts";
import { statusTableDefinition } from "./status-table.ts";

// dynalite ships CommonJS without types.
const require = createRequire(import.meta.url);

type Dynalite = (opts: Record<string, unknown>) => {
  listen(port: number, host: string, cb: () => void): void;
  address(): AddressInfo;
  close(cb: () => void): void;
};

/** A DynamoDB-compatible server in this process (dynalite), for the CLI, the demo and tests. */
export interface EmbeddedDynamo {
  endpoint: string;
  client: DynamoDBDocumentClient;
  close(): Promise<void>;
}

/**
 * Starts dynalite on loopback, persisted under `dir` (in memory without it), and creates the
 * given tables if they do not exist yet.
 */
export async function startEmbeddedDynamo(options: {
  dir?: string;
  /** Audit tables by name. */
  tables: string[];
  /** Application status tables by name. */
  statusTables?: string[];
}): Promise<EmbeddedDynamo> {
  const dynalite = require("dynalite") as Dynalite;
  let unlock = (): void => undefined;
  if (options.dir) {
    mkdirSync(options.dir, { recursive: true });
    unlock = lockStateDir(options.dir);
  }
  try {
    if (options.dir) await refuseDamaged(options.dir);
    return await serve(dynalite, options, unlock);
  } catch (err) {
    unlock();
    throw err;
  }
}

async function serve(
  dynalite: Dynalite,
  options: { dir?: string; tables: string[]; statusTables?: string[] },
  unlock: () => void,
): Promise<EmbeddedDynamo> {
  const server = dynalite({ path: options.dir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${server.address().port}`;
  const raw = new DynamoDBClient({
    endpoint,
    region: "local",
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
  });
  const definitions = [
    ...options.tables.map(auditTableDefinition),
    ...(options.statusTables ?? []).map((t) => statusTableDefinition(t)),
  ];
  for (const definition of definitions) await ensureTable(raw, definition);
  const client = documentClient(raw);
  return {
    endpoint,
    client,
    close: async () => {
      raw.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      unlock();
    },
  };
}

/**
 * Creates a table unless it exists, and returns once it is ACTIVE. dynalite answers CreateTable
 * while the table is still CREATING and refuses item requests until a timer flips it: a request
 * sent at once fails now and then on a loaded machine with ResourceNotFoundException.
 */
export async function ensureTable(
  client: DynamoDBClient | DynamoDBDocumentClient,
  definition: CreateTableCommandInput,
  timeoutMs = 10_000,
): Promise<void> {
  try {
    await (client as DynamoDBClient).send(new CreateTableCommand(definition));
  } catch (err) {
    if (!(err instanceof ResourceInUseException)) throw err;
  }
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { Table } = await (client as DynamoDBClient).send(
      new DescribeTableCommand({ TableName: definition.TableName }),
    );
    if (Table?.TableStatus === "ACTIVE") return;
    if (Date.now() > until) throw new Error(`table ${definition.TableName} is still ${Table?.TableStatus}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * Opens the LevelDB files under `dir` once before dynalite does. A store that exists but cannot
 * be opened (a lost or corrupt `CURRENT`, a broken manifest) makes dynalite throw outside any
 * caller, or LevelDB start an empty one: either way every alert would fire again. An empty or
 * new directory is fine. Files another process has open (LevelDB's `LOCK`) are in use, not
 * damaged: that process may be one the directory lock cannot see (another program, another host).
 */
async function refuseDamaged(dir: string): Promise<void> {
  if (!hasEmbeddedStore(dir)) return;
  const db = new Level(dir, { createIfMissing: false });
  try {
    await db.open();
  } catch (err) {
    const cause = (err as { cause?: unknown }).cause ?? err;
    // LevelDB's own lock: a process that has the files open, which is not damage.
    if ((cause as { code?: unknown }).code === "LEVEL_LOCKED")
      throw new StateDirInUseError(dir, undefined, { cause });
    throw new StateDirDamagedError(dir, cause);
  } finally {
    await db.close().catch(() => undefined);
  }
}

/**
 * Whether `dir` holds an embedded store: files besides the directory lock and what taking it over
 * may leave (see state-dir-lock.ts). A directory that is missing or holds only those is one that
 * `startEmbeddedDynamo` would start empty, creating it: a reader asks first, so that looking at a
 * store never makes one.
 */
export function hasEmbeddedStore(dir: string): boolean {
  try {
    return readdirSync(dir).some((f) => !f.startsWith("fleet-auditor.lock"));
  } catch (err) {
    // ENOTDIR: a file where the state directory should be holds no store either.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return false;
    throw err;
  }
}
