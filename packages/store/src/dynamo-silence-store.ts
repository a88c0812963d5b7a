import { type DynamoDBDocumentClient, PutCommand, paginateQuery, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Silence, SilenceSource } from "@fleet-auditor/audit";
import { itemKey } from "./audit-table.ts";
import { silenceOf } from "./legacy/silence-item.ts";

// Expired silences stay readable this long (for "who silenced what"), then TTL removes them.
const RETAIN_S = 30 * 86_400;

/** Silences in the audit table. Reads filter by time: TTL deletion lags by up to two days. */
export class DynamoSilenceStore implements SilenceSource {
  readonly #client: DynamoDBDocumentClient;
  readonly #table: string;
  constructor(options: { client: DynamoDBDocumentClient; tableName: string }) {
    this.#client = options.client;
    this.#table = options.tableName;
  }

  /** Silences in force at `now`. */
  async active(now: Date): Promise<Silence[]> {
    return (await this.list()).filter(
      (s) => Date.parse(s.startsAt) <= now.getTime() && Date.parse(s.endsAt) > now.getTime(),
    );
  }

  /** Every stored silence, expired ones included. */
  async list(): Promise<Silence[]> {
    const out: Silence[] = [];
    const pages = paginateQuery(
      { client: this.#client },
      {
        TableName: this.#table,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": "SILENCE" },
      },
    );
    for await (const page of pages)
      for (const item of page.Items ?? []) out.push(silenceOf(item.silence as Silence));
    return out;
  }

  async add(silence: Silence): Promise<void> {
    const ttl = Math.floor(Date.parse(silence.endsAt) / 1000) + RETAIN_S;
    await this.#client.send(
      new PutCommand({ TableName: this.#table, Item: { ...itemKey.silence(silence.id), silence, ttl } }),
    );
  }

  /** Ends a silence now (keeps it for the record). */
  async expire(id: string, now: Date): Promise<void> {
    await this.#client.send(
      new UpdateCommand({
        TableName: this.#table,
        Key: itemKey.silence(id),
        UpdateExpression: "SET silence.endsAt = :now",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeValues: { ":now": now.toISOString() },
      }),
    );
  }
}
