import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";

/**
 * The one way this product builds a DocumentClient, so that every adapter marshals alike:
 * optional fields left `undefined` are dropped instead of failing the write. Without a client,
 * one is made from the SDK's usual configuration (region, credentials, `AWS_ENDPOINT_URL_*`).
 * `DynamoDBDocumentClient.destroy()` does nothing: destroy the client passed in.
 */
export function documentClient(client: DynamoDBClient = new DynamoDBClient({})): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}
