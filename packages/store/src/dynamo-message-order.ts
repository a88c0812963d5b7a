import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { itemKey } from "./audit-table.ts";
import {
  appliedInput,
  holdInput,
  type OrderReceiver,
  type OrderState,
  orderStateOf,
  releaseInput,
} from "./message-order-item.ts";

export interface DynamoMessageOrderOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** Whose order it is: the Slack function's (`SLACK#<key>`) or the pager's (`PAGER#<key>`). */
  receiver: OrderReceiver;
  /** How long a key's item is kept after its last write. Default 90 days. */
  retainDays?: number;
  clock?: () => number;
}

/** What a hold found: the key held for the message, a message at or after it applied, or another holder. */
type OrderHold =
  | { kind: "held"; token: string }
  | { kind: "applied"; last: number }
  | { kind: "busy"; until: number };

/**
 * Each key's last applied message for one receiver, in the audit table (`itemKey.messageOrder`,
 * the codec in `message-order-item.ts`): the use cases' `MessageOrder`. A message is applied under
 * a hold: `hold` takes the key (a conditional update: only while nothing at or after the message's
 * place was applied and no other hold runs), `applied` records its place once it was sent and
 * lets go, `release` lets go without recording (its send failed, so that its retry can send it).
 * Two messages of one key are thus never sent at once, and an older one never after a newer one.
 * An item is kept `retainDays` after its last write (TTL): a message older than that is no longer
 * known, and applied. dynalite returns no old item with a refused condition; it is read then.
 */
export class DynamoMessageOrder {
  readonly #client: DynamoDBDocumentClient;
  readonly #table: string;
  readonly #receiver: OrderReceiver;
  readonly #retainS: number;
  readonly #clock: () => number;

  constructor(options: DynamoMessageOrderOptions) {
    this.#client = options.client;
    this.#table = options.tableName;
    this.#receiver = options.receiver;
    this.#retainS = (options.retainDays ?? 90) * 86_400;
    this.#clock = options.clock ?? Date.now;
  }

  /** Holds `key` for the message at `place` until `until` (epoch ms), or says why not. */
  async hold(key: string, place: number, until: number): Promise<OrderHold> {
    const token = crypto.randomUUID();
    const now = this.#clock();
    try {
      await this.#client.send(new UpdateCommand(holdInput(this.#write(key), { place, token, until, now })));
      return { kind: "held", token };
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
      const state = err.Item ? orderStateOf(err.Item) : await this.#read(key);
      if (state.applied !== undefined && state.applied >= place)
        return { kind: "applied", last: state.applied };
      // Held by another, or changed since the refusal: the caller asks again.
      return { kind: "busy", until: state.heldUntil ?? now };
    }
  }

  /**
   * Records the message at `place` as applied under `key` and lets go of it. False when the hold
   * was lost (it ran out and another message took the key): nothing is recorded then.
   */
  async applied(key: string, place: number, token: string): Promise<boolean> {
    const at = new Date(this.#clock()).toISOString();
    try {
      await this.#client.send(new UpdateCommand(appliedInput(this.#write(key), { place, token, at })));
      return true;
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return false;
      throw err;
    }
  }

  /** Lets go of `key` without recording anything; a hold already lost is left as it is. */
  async release(key: string, token: string): Promise<void> {
    try {
      await this.#client.send(
        new UpdateCommand(releaseInput({ tableName: this.#table, receiver: this.#receiver, key }, token)),
      );
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
    }
  }

  async #read(key: string): Promise<OrderState> {
    const { Item } = await this.#client.send(
      new GetCommand({
        TableName: this.#table,
        Key: itemKey.messageOrder(this.#receiver, key),
        ConsistentRead: true,
      }),
    );
    return orderStateOf(Item);
  }

  #write(key: string) {
    const ttl = Math.floor(this.#clock() / 1000) + this.#retainS;
    return { tableName: this.#table, receiver: this.#receiver, key, ttl };
  }
}
