// A table definition the store creates tables from (CreateTable's shape), in the shape SST's
// Dynamo component declares: so that the deployed table and the one every test and the CLI
// create are one definition. Pure.

import type { CreateTableCommandInput, GlobalSecondaryIndex } from "@aws-sdk/client-dynamodb";

/** SST's `fields`: each attribute a key uses, with its type. */
export function fieldsOf(
  definition: CreateTableCommandInput,
): Record<string, "string" | "number" | "binary"> {
  const types = { S: "string", N: "number", B: "binary" } as const;
  return Object.fromEntries(
    (definition.AttributeDefinitions ?? []).map((a) => [a.AttributeName, types[a.AttributeType ?? "S"]]),
  );
}

/** SST's `globalIndexes`: each index's keys and projection. */
export function globalIndexesOf(
  indexes: readonly GlobalSecondaryIndex[],
): Record<string, { hashKey: string; rangeKey?: string; projection: "all" | "keys-only" | string[] }> {
  return Object.fromEntries(
    indexes.map((i) => {
      const [hash, range] = i.KeySchema ?? [];
      const p = i.Projection;
      const projection =
        p?.ProjectionType === "KEYS_ONLY"
          ? ("keys-only" as const)
          : p?.ProjectionType === "INCLUDE"
            ? [...(p.NonKeyAttributes ?? [])]
            : ("all" as const);
      return [
        i.IndexName,
        {
          hashKey: String(hash?.AttributeName),
          ...(range ? { rangeKey: String(range.AttributeName) } : {}),
          projection,
        },
      ];
    }),
  );
}
