import type { CreateTableCommandInput, GlobalSecondaryIndex } from "@aws-sdk/client-dynamodb";
import type { Declared } from "../helpers/sst-stand-ins.ts";

// A table as sst.config.ts declares it for a stage (SST's Dynamo arguments, recorded by the
// stand-ins), back in CreateTable's terms: so that the cost bench measures the indexes a stage
// deploys (the retiring ones too, where the stage keeps them), not the store's definition alone.

/** CreateTable's definition of the recorded `sst.aws.Dynamo` declaration `d`, named `tableName`. */
export function tableAsDeclared(d: Declared, tableName: string): CreateTableCommandInput {
  const types = { string: "S", number: "N", binary: "B" } as const;
  const fields = d.args.fields as Record<string, keyof typeof types>;
  const primary = d.args.primaryIndex as { hashKey: string; rangeKey?: string };
  const indexes = (d.args.globalIndexes ?? {}) as Record<
    string,
    { hashKey: string; rangeKey?: string; projection?: "all" | "keys-only" | string[] }
  >;
  const keys = (hash: string, range?: string) => [
    { AttributeName: hash, KeyType: "HASH" as const },
    ...(range ? [{ AttributeName: range, KeyType: "RANGE" as const }] : []),
  ];
  const projection = (p: "all" | "keys-only" | string[] = "all"): GlobalSecondaryIndex["Projection"] =>
    Array.isArray(p)
      ? { ProjectionType: "INCLUDE", NonKeyAttributes: [...p] }
      : { ProjectionType: p === "all" ? "ALL" : "KEYS_ONLY" };
  return {
    TableName: tableName,
    BillingMode: "PAY_PER_REQUEST",
    AttributeDefinitions: Object.entries(fields).map(([AttributeName, type]) => ({
      AttributeName,
      AttributeType: types[type],
    })),
    KeySchema: keys(primary.hashKey, primary.rangeKey),
    GlobalSecondaryIndexes: Object.entries(indexes).map(([IndexName, i]) => ({
      IndexName,
      KeySchema: keys(i.hashKey, i.rangeKey),
      Projection: projection(i.projection),
    })),
  };
}
