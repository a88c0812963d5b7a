import { BatchGetCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { backoffMs } from "@fleet-auditor/backoff";
import { UnprocessedItemsError } from "./errors.ts";

/**
 * Reads items by key in BatchGetItem calls of 100, retrying `UnprocessedKeys` with exponential
 * backoff and jitter (DynamoDB returns them under throttling, not as an error). Order not kept;
 * keys with no item are left out.
 */
export async function batchGet(
  client: DynamoDBDocumentClient,
  tableName: string,
  keys: readonly Record<string, unknown>[],
  options: { attempts?: number; baseDelayMs?: number } = {},
): Promise<Record<string, unknown>[]> {
  const attempts = options.attempts ?? 6;
  const base = options.baseDelayMs ?? 50;
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < keys.length; i += 100) {
    let pending = keys.slice(i, i + 100);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt >= attempts) throw new UnprocessedItemsError(pending.length);
      // Retry n waits up to baseDelayMs · 2^n: the first one up to twice baseDelayMs.
      if (attempt > 0) await sleep(backoffMs(attempt, { baseMs: 2 * base }));
      const answer = await client.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending } } }),
      );
      out.push(...(answer.Responses?.[tableName] ?? []));
      pending = answer.UnprocessedKeys?.[tableName]?.Keys ?? [];
    }
  }
  return out;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
