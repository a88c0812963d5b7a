import type { CreateTableCommandInput } from "@aws-sdk/client-dynamodb";

/** Index names of the status table. */
export const STATUS_INDEXES = { byNode: "byNode", byStatus: "byStatus", quarantine: "byQuarantine" } as const;

/**
 * The Application status table: `id` is the Application ID (or `QUARANTINE#<sqs message id>`).
 * Sparse indexes: `byNode` (node, ts) and `byStatus` (status, ts) hold Applications only;
 * `byQuarantine` (qk, receivedAt) holds quarantined bodies only.
 */
export function statusTableDefinition(tableName: string): CreateTableCommandInput {
  const index = (name: string, hash: string, range: string) => ({
    IndexName: name,
    KeySchema: [
      { AttributeName: hash, KeyType: "HASH" as const },
      { AttributeName: range, KeyType: "RANGE" as const },
    ],
    Projection: { ProjectionType: "ALL" as const },
  });
  return {
    TableName: tableName,
    BillingMode: "PAY_PER_REQUEST",
    AttributeDefinitions: [
      { AttributeName: "id", AttributeType: "S" },
      { AttributeName: "node", AttributeType: "S" },
      { AttributeName: "status", AttributeType: "S" },
      { AttributeName: "ts", AttributeType: "N" },
      { AttributeName: "qk", AttributeType: "S" },
      { AttributeName: "receivedAt", AttributeType: "S" },
    ],
    KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
    GlobalSecondaryIndexes: [
      index(STATUS_INDEXES.byNode, "node", "ts"),
      index(STATUS_INDEXES.byStatus, "status", "ts"),
      index(STATUS_INDEXES.quarantine, "qk", "receivedAt"),
    ],
  };
}
