import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { auditTableDefinition, documentClient, ensureTable } from "@fleet-auditor/store";
import { launchDynamoLocal } from "../helpers/dynamo-local.ts";
import { type BenchOptions, javaPresent } from "./kit.ts";
import { startChildDynamo } from "./sim-child.ts";

/** A DynamoDB API a benchmark runs against, with audit tables made. */
export interface BenchDynamo {
  /** As printed: which server, and where it runs. */
  name: string;
  /** A new document client on its own SDK client (each counts its own requests). */
  client(): DynamoDBDocumentClient;
  stop(): Promise<void>;
}

/**
 * dynalite in a child process (real DynamoDB is remote: it must not run on the client's event
 * loop), then AWS's DynamoDB Local (a JVM) when Java is here: the two servers the store's tests
 * run on. Each gets `tables`. Without Java the second is left out, saying why.
 */
export async function benchDynamos(
  tables: string[],
  options: BenchOptions,
  say: (line: string) => void,
): Promise<Array<() => Promise<BenchDynamo>>> {
  const dynalite = async (): Promise<BenchDynamo> => {
    const child = await startChildDynamo(tables);
    return served("dynalite (in a child process)", child.endpoint, "bench", child.stop);
  };
  const local = async (): Promise<BenchDynamo> => {
    const given = options.dynamoLocal;
    const jvm = given ? undefined : await launchDynamoLocal();
    const endpoint = given?.endpoint ?? (jvm?.endpoint as string);
    // DynamoDB Local keeps a database per access key: one of this run's own (letters and digits).
    const db = await served("DynamoDB Local", endpoint, `bench${Date.now()}`, async () => jvm?.stop());
    const raw = db.client();
    for (const t of tables) await ensureTable(raw, auditTableDefinition(t));
    return db;
  };
  if (options.dynamoLocal || (await javaPresent())) return [dynalite, local];
  say("DynamoDB Local: left out (no java on PATH)");
  return [dynalite];
}

function served(name: string, endpoint: string, accessKeyId: string, stop: () => Promise<void>): BenchDynamo {
  const clients: DynamoDBClient[] = [];
  return {
    name,
    client: () => {
      const raw = new DynamoDBClient({
        endpoint,
        region: "us-east-1",
        credentials: { accessKeyId, secretAccessKey: "bench" },
      });
      clients.push(raw);
      return documentClient(raw);
    },
    stop: async () => {
      for (const c of clients) c.destroy();
      await stop();
    },
  };
}
