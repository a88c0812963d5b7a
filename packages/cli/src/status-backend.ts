import { join } from "node:path";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { DynamoStatusStore, startEmbeddedDynamo } from "@fleet-auditor/store";

const LOCAL_STATUS_TABLE = "fleet-auditor-status";

/** The Application status table for the CLI: DynamoDB with `STATUS_TABLE`, else the embedded store. */
export async function openStatusBackend(
  stateDir: string,
  env: Record<string, string | undefined>,
): Promise<{ store: DynamoStatusStore; description: string; close(): Promise<void> }> {
  if (env.STATUS_TABLE) {
    const raw = new DynamoDBClient({});
    const client = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });
    return {
      store: new DynamoStatusStore({ client, tableName: env.STATUS_TABLE }),
      description: `DynamoDB table ${env.STATUS_TABLE}`,
      close: async () => raw.destroy(),
    };
  }
  const db = await startEmbeddedDynamo({
    dir: join(stateDir, "dynamodb"),
    tables: [],
    statusTables: [LOCAL_STATUS_TABLE],
  });
  return {
    store: new DynamoStatusStore({ client: db.client, tableName: LOCAL_STATUS_TABLE }),
    description: `embedded store in ${stateDir}`,
    close: () => db.close(),
  };
}
