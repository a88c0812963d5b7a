import { type EmbeddedDynamo, startEmbeddedDynamo } from "@fleet-auditor/store";
import { afterAll, beforeAll } from "vitest";
import { startDynamoLocal } from "./dynamo-local.ts";

/**
 * The DynamoDB API the tests run against: dynalite in process, or with `FLEET_AUDITOR_DYNAMO=local`
 * (the `dynamodb-local` Vitest project) AWS's DynamoDB Local.
 */
const start = (options: { tables: string[]; statusTables?: string[] }): Promise<EmbeddedDynamo> =>
  process.env.FLEET_AUDITOR_DYNAMO === "local" ? startDynamoLocal(options) : startEmbeddedDynamo(options);

/** An in-memory DynamoDB API with audit tables, for one test file. */
export function useDynamo(tables = ["audit"]): { db: EmbeddedDynamo } {
  const holder = {} as { db: EmbeddedDynamo };
  beforeAll(async () => {
    holder.db = await start({ tables });
  }, 60_000);
  afterAll(async () => {
    await holder.db?.close();
  });
  return holder;
}

/** An in-memory DynamoDB API with one Application status table. */
export function useDynamoStatus(table = "status"): { db: EmbeddedDynamo } {
  const holder = {} as { db: EmbeddedDynamo };
  beforeAll(async () => {
    holder.db = await start({ tables: [], statusTables: [table] });
  }, 60_000);
  afterAll(async () => {
    await holder.db?.close();
  });
  return holder;
}
