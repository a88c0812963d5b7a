import type { CreateTableCommandInput } from "@aws-sdk/client-dynamodb";
import { WATCH_PROJECTION } from "./watch-key.ts";

/** Index names of the status table. */
export const STATUS_INDEXES = { byNode: "byNode", watch: "byWatch", quarantine: "byQuarantine" } as const;

/**
 * The Application status table: `id` is the Application ID (or `QUARANTINE#<sqs message id>`).
 * Sparse indexes: `byNode` (node, ts) holds Applications with a node, every attribute (its
 * reader, `apps status --node`, returns whole rows); `byWatch` (wk, ts) holds only the rows an
 * audit watches, unfinished (`open#<n>`) and refused (`refused#<n>`), spread over shards and
 * projecting what the audit reads (see `watch-key.ts`); `byQuarantine` (qk, receivedAt) holds
 * quarantined bodies only.
 */
export function statusTableDefinition(tableName: string): CreateTableCommandInput {
  const key = (hash: string, range: string) => [
    { AttributeName: hash, KeyType: "HASH" as const },
    { AttributeName: range, KeyType: "RANGE" as const },
  ];
  return {
    TableName: tableName,
    BillingMode: "PAY_PER_REQUEST",
    AttributeDefinitions: [
      { AttributeName: "id", AttributeType: "S" },
      { AttributeName: "node", AttributeType: "S" },
      { AttributeName: "wk", AttributeType: "S" },
      { AttributeName: "ts", AttributeType: "N" },
      { AttributeName: "qk", AttributeType: "S" },
      { AttributeName: "receivedAt", AttributeType: "S" },
    ],
    KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
    GlobalSecondaryIndexes: [
      {
        IndexName: STATUS_INDEXES.byNode,
        KeySchema: key("node", "ts"),
        Projection: { ProjectionType: "ALL" },
      },
      {
        IndexName: STATUS_INDEXES.watch,
        KeySchema: key("wk", "ts"),
        Projection: { ProjectionType: "INCLUDE", NonKeyAttributes: [...WATCH_PROJECTION] },
      },
      {
        IndexName: STATUS_INDEXES.quarantine,
        KeySchema: key("qk", "receivedAt"),
        Projection: { ProjectionType: "ALL" },
      },
    ],
  };
}
