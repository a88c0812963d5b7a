import { Logger } from "@aws-lambda-powertools/logger";
import type { QuarantineItem, StatusRow } from "@fleet-auditor/metaserver";
import { DynamoStatusStore, documentClient } from "@fleet-auditor/store";
import {
  ApplicationsEnvSchema,
  parseConfig,
  parseStatusQuery,
  RunInputError,
} from "@fleet-auditor/use-cases";
import { functionStack } from "./lib/stack.ts";

const env = parseConfig(ApplicationsEnvSchema, process.env);
const logger = new Logger({ serviceName: "fleet-auditor" });
const store = new DynamoStatusStore({
  client: documentClient(),
  tableName: env.STATUS_TABLE,
});

/** A query the function could not read: its problems, each `field: message`, never a value. */
export interface StatusQueryRefused {
  error: { code: string; message: string; problems: string[] };
}

/**
 * Console queries: `{ "node": "edge-1", "status": "Rejected", "since": "…" }`, or `{ "quarantine": true }`.
 * A malformed query is answered, not thrown: a thrown error is a Lambda error, which the
 * `ApplicationStatusQueryErrors` alarm would page Ops for over a typo in the console.
 */
export const handler = functionStack<unknown, StatusRow[] | QuarantineItem[] | StatusQueryRefused>(
  logger,
).handler(async (event) => {
  let q: ReturnType<typeof parseStatusQuery>;
  try {
    q = parseStatusQuery(event);
  } catch (err) {
    if (!(err instanceof RunInputError)) throw err;
    return { error: { code: err.code, message: err.message, problems: err.problems } };
  }
  if (q.quarantine) return store.quarantined(q.limit);
  return store.query(
    { node: q.node, status: q.status, since: q.since ? new Date(q.since) : undefined, limit: q.limit },
    new Date(),
  );
});
