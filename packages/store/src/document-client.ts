import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { TableMissingError } from "./errors.ts";

/**
 * The one way this product builds a DocumentClient, so that every adapter marshals alike:
 * optional fields left `undefined` are dropped instead of failing the write. Without a client,
 * one is made from the SDK's usual configuration (region, credentials, `AWS_ENDPOINT_URL_*`).
 * `DynamoDBDocumentClient.destroy()` does nothing: destroy the client passed in.
 */
export function documentClient(client: DynamoDBClient = new DynamoDBClient({})): DynamoDBDocumentClient {
  const doc = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  nameMissingTables(client);
  return doc;
}

const NAMED = "fleetAuditorNameMissingTables";

/**
 * DynamoDB answers a missing table with "Requested resource not found", naming nothing: every
 * command through this client says which table instead, whichever adapter sent it.
 */
function nameMissingTables(client: DynamoDBClient): void {
  if (client.middlewareStack.identify().some((m) => m.startsWith(NAMED))) return;
  client.middlewareStack.add(
    (next) => async (args) => {
      try {
        return await next(args);
      } catch (err) {
        if ((err as Error).name !== "ResourceNotFoundException") throw err;
        const input = args.input as { TableName?: string; RequestItems?: Record<string, unknown> };
        const table = input.TableName ?? Object.keys(input.RequestItems ?? {}).join(", ");
        if (!table) throw err;
        const endpoint = client.config.endpoint ? await client.config.endpoint() : undefined;
        const where = endpoint
          ? `${endpoint.protocol}//${endpoint.hostname}${endpoint.port ? `:${endpoint.port}` : ""}`
          : await client.config.region();
        throw new TableMissingError(table, where, { cause: err });
      }
    },
    { step: "initialize", name: NAMED },
  );
}
