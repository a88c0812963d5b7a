import type { CreateTableCommandInput, GlobalSecondaryIndex } from "@aws-sdk/client-dynamodb";
import { WATCH_PROJECTION } from "./watch-key.ts";

/** Index names of the status table. */
export const STATUS_INDEXES = {
  byNode: "byNodeId",
  watch: "byWatch",
  quarantine: "byQuarantineCode",
} as const;

/**
 * The indexes `byNodeId` and `byQuarantineCode` replace. DynamoDB cannot change an index's key or
 * projection in place, so a stage keeps these beside the new ones until the new ones are ACTIVE
 * (docs/kubeedge.md, "Changing an index"), and readers fall back to them only while the new ones cannot be
 * read (`index-fallback.ts`).
 */
export const RETIRING_STATUS_INDEXES = { byNode: "byNode", quarantine: "byQuarantine" } as const;

const key = (hash: string, range: string) => [
  { AttributeName: hash, KeyType: "HASH" as const },
  { AttributeName: range, KeyType: "RANGE" as const },
];

/** Settings of `statusTableDefinition`. */
export interface StatusTableOptions {
  /**
   * Whether the table has `byNodeId`. Default false: every new row enters it, half a write unit
   * per message (a fifth of the table's writes), for one reader, `apps status --node`, which
   * without it scans the table for the node's rows (docs/kubeedge.md#queries). A stage opts in
   * with `nodeIndex` in stages.json.
   */
  nodeIndex?: boolean;
  /**
   * Whether the table keeps the retiring `byNode` and `byQuarantine` beside today's: only a stage
   * deployed before their replacements, until those are ACTIVE (`retiringStatusIndexes`).
   */
  retiringIndexes?: boolean;
}

/**
 * The Application status table: `id` is the Application ID (or `QUARANTINE#<sqs message id>`).
 * Sparse indexes, each projecting what its readers need and keyed so that an ordinary message
 * rewrites as little of them as it can:
 * - `byNodeId` (node, id), keys only, only with `nodeIndex`: which Applications a node has. Its
 *   keys change only when a row is created or changes node, so an update costs it nothing, but
 *   every new row does; `apps status --node` reads the rows whole by id.
 * - `byWatch` (wk, ts): only the rows an audit watches, unfinished (`open#<n>`) and refused
 *   (`refused#<n>`), spread over shards and projecting what the audit reads (`watch-key.ts`).
 * - `byQuarantineCode` (qk, receivedAt), with `code`: what the applications audit counts; the
 *   excerpts (up to 4 KB) stay in the table, read by id for `apps quarantine`.
 */
export function statusTableDefinition(
  tableName: string,
  options: StatusTableOptions = {},
): CreateTableCommandInput {
  const byNodeId: GlobalSecondaryIndex = {
    IndexName: STATUS_INDEXES.byNode,
    KeySchema: key("node", "id"),
    Projection: { ProjectionType: "KEYS_ONLY" },
  };
  return {
    TableName: tableName,
    BillingMode: "PAY_PER_REQUEST",
    AttributeDefinitions: [
      { AttributeName: "id", AttributeType: "S" },
      // DynamoDB refuses a definition no key uses.
      ...(options.nodeIndex || options.retiringIndexes
        ? [{ AttributeName: "node", AttributeType: "S" as const }]
        : []),
      { AttributeName: "wk", AttributeType: "S" },
      { AttributeName: "ts", AttributeType: "N" },
      { AttributeName: "qk", AttributeType: "S" },
      { AttributeName: "receivedAt", AttributeType: "S" },
    ],
    KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
    GlobalSecondaryIndexes: [
      ...(options.nodeIndex ? [byNodeId] : []),
      {
        IndexName: STATUS_INDEXES.watch,
        KeySchema: key("wk", "ts"),
        Projection: { ProjectionType: "INCLUDE", NonKeyAttributes: [...WATCH_PROJECTION] },
      },
      {
        IndexName: STATUS_INDEXES.quarantine,
        KeySchema: key("qk", "receivedAt"),
        Projection: { ProjectionType: "INCLUDE", NonKeyAttributes: ["code"] },
      },
      ...(options.retiringIndexes ? retiringStatusIndexes() : []),
    ],
  };
}

/**
 * The retiring indexes as they were: `byNode` (node, ts) and `byQuarantine` (qk, receivedAt),
 * every attribute. A message that moved `ts` rewrote its `byNode` entry twice (a delete and a
 * put of the whole row), and every quarantined excerpt was stored twice.
 */
export function retiringStatusIndexes(): GlobalSecondaryIndex[] {
  return [
    {
      IndexName: RETIRING_STATUS_INDEXES.byNode,
      KeySchema: key("node", "ts"),
      Projection: { ProjectionType: "ALL" },
    },
    {
      IndexName: RETIRING_STATUS_INDEXES.quarantine,
      KeySchema: key("qk", "receivedAt"),
      Projection: { ProjectionType: "ALL" },
    },
  ];
}
