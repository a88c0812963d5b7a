import { BatchWriteCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { backoffMs } from "@fleet-auditor/backoff";
import { UnprocessedItemsError } from "./errors.ts";

type WriteRequest = NonNullable<
  NonNullable<ConstructorParameters<typeof BatchWriteCommand>[0]["RequestItems"]>[string]
>[number];

/**
 * Writes puts and deletes in BatchWriteItem calls of 25, retrying `UnprocessedItems` with
 * exponential backoff and jitter (DynamoDB returns them under throttling, not as an error).
 */
export async function batchWrite(
  client: DynamoDBDocumentClient,
  tableName: string,
  requests: readonly WriteRequest[],
  options: { attempts?: number; baseDelayMs?: number } = {},
): Promise<void> {
  const attempts = options.attempts ?? 6;
  const base = options.baseDelayMs ?? 50;
  for (let i = 0; i < requests.length; i += 25) {
    let pending: WriteRequest[] = requests.slice(i, i + 25);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt >= attempts) throw new UnprocessedItemsError(pending.length);
      // Retry n waits up to baseDelayMs · 2^n: the first one up to twice baseDelayMs.
      if (attempt > 0) await sleep(backoffMs(attempt, { baseMs: 2 * base }));
      const out = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      pending = (out.UnprocessedItems?.[tableName] ?? []) as WriteRequest[];
    }
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
