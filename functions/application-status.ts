import { Logger } from "@aws-lambda-powertools/logger";
import type { QuarantineItem, StatusRow } from "@fleet-auditor/metaserver";
import { DynamoStatusStore, documentClient } from "@fleet-auditor/store";
import { ApplicationsEnvSchema, parseConfig, parseStatusQuery } from "@fleet-auditor/use-cases";
import { functionStack } from "./lib/stack.ts";

const env = parseConfig(ApplicationsEnvSchema, process.env);
const logger = new Logger({ serviceName: "fleet-auditor" });
const store = new DynamoStatusStore({
  client: documentClient(),
  tableName: env.STATUS_TABLE,
});

/** Console queries: `{ "node": "edge-1", "status": "Rejected", "since": "…" }`, or `{ "quarantine": true }`. */
export const handler = functionStack<unknown, StatusRow[] | QuarantineItem[]>(logger).handler(
  async (event) => {
    const q = parseStatusQuery(event);
    if (q.quarantine) return store.quarantined(q.limit);
    return store.query(
      { node: q.node, status: q.status, since: q.since ? new Date(q.since) : undefined, limit: q.limit },
      new Date(),
    );
  },
);
