import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { itemKey } from "./audit-table.ts";

export interface DynamoSlackThreadsOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** The channel the bot posts to: a thread is kept per incident and channel. */
  channel: string;
  /** How long a parent is kept, from its post. Default 90 days. */
  retainDays?: number;
  clock?: () => number;
}

/**
 * Where each incident's Slack thread starts, in the audit table (`itemKey.slackThread`): the
 * parent message's `ts` by `incidentKey` and channel, the use cases' `SlackThreads` port. A parent
 * is kept `retainDays` from its post (TTL): an incident still open after that starts a new
 * thread. Reads filter by time too, since TTL deletion lags by up to two days, and a parent in
 * another channel is another thread (a changed `SLACK_CHANNEL` starts new ones).
 */
export class DynamoSlackThreads {
  readonly #client: DynamoDBDocumentClient;
  readonly #table: string;
  readonly #channel: string;
  readonly #retainS: number;
  readonly #clock: () => number;

  constructor(options: DynamoSlackThreadsOptions) {
    this.#client = options.client;
    this.#table = options.tableName;
    this.#channel = options.channel;
    this.#retainS = (options.retainDays ?? 90) * 86_400;
    this.#clock = options.clock ?? Date.now;
  }

  /**
   * The `ts` of the incident's thread parent, or undefined when none is kept (or it expired).
   * Read consistently: the delivery before this one may have kept it a moment ago.
   */
  async parentOf(incidentKey: string): Promise<string | undefined> {
    const { Item } = await this.#client.send(
      new GetCommand({
        TableName: this.#table,
        Key: itemKey.slackThread(incidentKey, this.#channel),
        ConsistentRead: true,
      }),
    );
    if (!Item || typeof Item.ts !== "string" || Number(Item.ttl) <= this.#nowS()) return undefined;
    return Item.ts;
  }

  /**
   * Keeps `ts` as the incident's thread parent unless a live one is kept already, and returns the
   * parent that stands: the first one kept, so that two posts that raced to start the thread
   * leave one thread, not two (the later post stays a message of its own).
   */
  async keepParent(incidentKey: string, ts: string): Promise<string> {
    const now = this.#nowS();
    try {
      await this.#client.send(
        new PutCommand({
          TableName: this.#table,
          Item: {
            ...itemKey.slackThread(incidentKey, this.#channel),
            ts,
            incidentKey,
            channel: this.#channel,
            postedAt: new Date(now * 1000).toISOString(),
            ttl: now + this.#retainS,
          },
          // An expired parent that TTL has not deleted yet is replaced, as if it were gone.
          ConditionExpression: "attribute_not_exists(pk) OR #ttl <= :now",
          ExpressionAttributeNames: { "#ttl": "ttl" },
          ExpressionAttributeValues: { ":now": now },
        }),
      );
      return ts;
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
      // dynalite returns no old item on a failed condition: read the one that stands.
      return (await this.parentOf(incidentKey)) ?? ts;
    }
  }

  #nowS(): number {
    return Math.floor(this.#clock() / 1000);
  }
}
