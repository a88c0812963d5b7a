import {
  ConditionalCheckFailedException,
  DynamoDBServiceException,
  ItemCollectionSizeLimitExceededException,
  ProvisionedThroughputExceededException,
  ThrottlingException,
} from "@aws-sdk/client-dynamodb";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { FleetAuditorError } from "@fleet-auditor/errors";
import { decodeMessage, type StatusUpdate, toUpdate } from "@fleet-auditor/metaserver";
import { DynamoStatusStore, TableMissingError, WriteRefusedError } from "@fleet-auditor/store";
import { describe, expect, it } from "vitest";

// Which DynamoDB errors are final is the store's to say: each error a write can meet, thrown by a
// client that answers every request with it, and what the store makes of it.

const NOW = new Date(Date.UTC(2026, 10, 30, 12, 0));
const $metadata = { httpStatusCode: 400 };

/** A service error the SDK builds from DynamoDB's answer, as it names the ones it has no class for. */
const answered = (name: string, $fault: "client" | "server" = "client"): Error =>
  new DynamoDBServiceException({ name, $fault, $metadata, message: `DynamoDB says ${name}` });

const FINAL: Array<[string, Error]> = [
  ["ValidationException", answered("ValidationException")],
  [
    "ItemCollectionSizeLimitExceededException",
    new ItemCollectionSizeLimitExceededException({ $metadata, message: "collection over 10 GB" }),
  ],
  ["SerializationException", answered("SerializationException")],
];

const RETRIED: Array<[string, Error]> = [
  [
    "ProvisionedThroughputExceededException",
    new ProvisionedThroughputExceededException({ $metadata, message: "throttled" }),
  ],
  ["ThrottlingException", new ThrottlingException({ $metadata, message: "throttled" })],
  ["RequestLimitExceeded", answered("RequestLimitExceeded")],
  ["InternalServerError", answered("InternalServerError", "server")],
  ["ServiceUnavailable", answered("ServiceUnavailable", "server")],
  ["TransactionConflictException", answered("TransactionConflictException")],
  ["AccessDeniedException", answered("AccessDeniedException")],
  ["UnrecognizedClientException", answered("UnrecognizedClientException")],
  ["TableMissingError", new TableMissingError("status", "us-east-1")],
  ["AbortError", Object.assign(new Error("This operation was aborted"), { name: "AbortError" })],
  ["TimeoutError", Object.assign(new Error("socket timed out"), { name: "TimeoutError" })],
  ["ECONNRESET", Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" })],
];

function update(id: string): StatusUpdate {
  const m = decodeMessage(
    JSON.stringify({
      header: { msg_id: "m-1", timestamp: NOW.getTime() - 60_000 },
      route: { resource: "node/edge-1/null" },
      content: { ID: id, Key: "/apps/v1/deployments/default/nginx", Verb: "get", Status: "InApplying" },
    }),
  );
  return toUpdate(m, m.applications[0] as NonNullable<(typeof m.applications)[0]>);
}

/** A status store whose every request DynamoDB answers with `error`. */
function storeAnswering(error: Error): DynamoStatusStore {
  const client = {
    send: async () => {
      throw error;
    },
  } as unknown as DynamoDBDocumentClient;
  return new DynamoStatusStore({ client, tableName: "status" });
}

describe("DynamoStatusStore: which failed writes are final", () => {
  it.each(FINAL)(
    "refuses a write for good on %s, keeping DynamoDB's error as its cause",
    async (name, error) => {
      const store = storeAnswering(error);
      const thrown = await store.apply(update("app-1"), NOW).catch((e: unknown) => e);
      expect(thrown).toBeInstanceOf(WriteRefusedError);
      expect(store.isFinal(thrown)).toBe(true);
      expect(thrown).toMatchObject({
        code: "STORE_REFUSED",
        applicationId: "app-1",
        cause: error,
        message: `DynamoDB refused the write of Application app-1 for good: ${name}: ${error.message}`,
      });
    },
  );

  it.each(RETRIED)("throws %s as it came, to be retried", async (_name, error) => {
    const store = storeAnswering(error);
    const thrown = await store.apply(update("app-1"), NOW).catch((e: unknown) => e);
    expect(thrown).toBe(error);
    expect(store.isFinal(thrown)).toBe(false);
  });

  it("names a long Application ID by its first 80 characters in the reason", async () => {
    const id = "x".repeat(3_000);
    const thrown = await storeAnswering(answered("ValidationException"))
      .apply(update(id), NOW)
      .catch((e: unknown) => e);
    expect((thrown as Error).message).toBe(
      `DynamoDB refused the write of Application ${"x".repeat(80)}… for good: ValidationException: DynamoDB says ValidationException`,
    );
    expect(thrown).toMatchObject({ applicationId: id });
  });

  it("says final only of its own refusals: not of DynamoDB's error unwrapped, nor of a coded error made elsewhere", () => {
    const store = storeAnswering(answered("ValidationException"));
    expect(store.isFinal(answered("ValidationException"))).toBe(false);
    expect(store.isFinal(new FleetAuditorError("STORE_REFUSED", "made elsewhere"))).toBe(false);
    expect(store.isFinal(undefined)).toBe(false);
  });

  it("reads a refused conditional write as stale or duplicate, never as a failure", async () => {
    const winner = { msgId: { S: "m-1" } };
    const refusal = new ConditionalCheckFailedException({ $metadata, message: "refused", Item: winner });
    await expect(storeAnswering(refusal).apply(update("app-1"), NOW)).resolves.toBe("duplicate");
  });
});
