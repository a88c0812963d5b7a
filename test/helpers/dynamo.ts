import { type EmbeddedDynamo, startEmbeddedDynamo } from "@fleet-auditor/store";
import { afterAll, beforeAll } from "vitest";

/** An in-memory dynalite with the audit table, for one test file. */
export function useDynamo(tables = ["audit"]): { db: EmbeddedDynamo } {
  const holder = {} as { db: EmbeddedDynamo };
  beforeAll(async () => {
    holder.db = await startEmbeddedDynamo({ tables });
  });
  afterAll(async () => {
    await holder.db?.close();
  });
  return holder;
}

/** An in-memory dynalite with one Application status table. */
export function useDynamoStatus(table = "status"): { db: EmbeddedDynamo } {
  const holder = {} as { db: EmbeddedDynamo };
  beforeAll(async () => {
    holder.db = await startEmbeddedDynamo({ tables: [], statusTables: [table] });
  });
  afterAll(async () => {
    await holder.db?.close();
  });
  return holder;
}
