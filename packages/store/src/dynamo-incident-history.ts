import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { DeleteCommand, type DynamoDBDocumentClient, PutCommand, paginateQuery } from "@aws-sdk/lib-dynamodb";
import type {
  Acknowledgement,
  IncidentActionStore,
  IncidentEvent,
  IncidentHistory,
  IncidentQuery,
  IncidentRecord,
} from "@fleet-auditor/audit";
import { itemKey } from "./audit-table.ts";
import { batchGet } from "./batch-get.ts";
import { eventItem, recordsOf } from "./incident-items.ts";

/**
 * Incident history as the audit runs wrote it (`incident-items.ts`): a list reads each audit's
 * partition of records, leaving out on the server those that ended before `since`; a timeline is
 * one incident's events, oldest first. Both are bounded by the TTL (90 days by default). Actions
 * (acknowledgements, silences by key, a page resolved in PagerDuty) add their events and keep an
 * acknowledgement in an item of its own beside the record, which reads merge.
 */
export class DynamoIncidentHistory implements IncidentHistory, IncidentActionStore {
  readonly #client: DynamoDBDocumentClient;
  readonly #table: string;

  constructor(options: { client: DynamoDBDocumentClient; tableName: string }) {
    this.#client = options.client;
    this.#table = options.tableName;
  }

  async listIncidents(audits: readonly string[], query: IncidentQuery): Promise<IncidentRecord[]> {
    const lists = await Promise.all(audits.map((a) => this.#list(a, query)));
    return lists.flat().sort((a, b) => (a.openedAt === b.openedAt ? 0 : a.openedAt < b.openedAt ? 1 : -1));
  }

  async #list(audit: string, query: IncidentQuery): Promise<IncidentRecord[]> {
    if (query.audit !== undefined && query.audit !== audit) return [];
    const values: Record<string, string> = { ":pk": itemKey.incident(audit, "").pk };
    let filter: string | undefined;
    if (query.open) filter = "attribute_not_exists(endedAt)";
    else if (query.since) {
      filter = "attribute_not_exists(endedAt) OR endedAt >= :since";
      values[":since"] = query.since.toISOString();
    }
    const items: Record<string, unknown>[] = [];
    const pages = paginateQuery(
      { client: this.#client },
      {
        TableName: this.#table,
        KeyConditionExpression: "pk = :pk",
        ...(filter ? { FilterExpression: filter } : {}),
        ExpressionAttributeValues: values,
      },
    );
    for await (const page of pages) items.push(...(page.Items ?? []));
    return [...recordsOf(items).values()];
  }

  async incidentTimeline(
    audits: readonly string[],
    key: string,
  ): Promise<{ record: IncidentRecord; events: IncidentEvent[] } | undefined> {
    const found = await this.findIncident(audits, key);
    if (!found) return undefined;
    const events: IncidentEvent[] = [];
    const pages = paginateQuery(
      { client: this.#client },
      {
        TableName: this.#table,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": itemKey.incidentEvent(key, "", "").pk },
      },
    );
    for await (const page of pages)
      for (const item of page.Items ?? []) events.push(item.event as IncidentEvent);
    return { record: found.record, events };
  }

  async findIncident(
    audits: readonly string[],
    key: string,
  ): Promise<{ audit: string; record: IncidentRecord } | undefined> {
    const items = await batchGet(
      this.#client,
      this.#table,
      audits.flatMap((a) => [
        itemKey.incident(a, key),
        itemKey.incidentAck(a, key),
        itemKey.incidentPagerResolved(a, key),
      ]),
    );
    for (const audit of audits) {
      const own = items.filter((i) => i.pk === itemKey.incident(audit, key).pk);
      const record = recordsOf(own).get(key);
      if (record) return { audit, record };
    }
    return undefined;
  }

  async acknowledge(audit: string, key: string, ack: Acknowledgement, expiresAt: number): Promise<boolean> {
    try {
      await this.#client.send(
        new PutCommand({
          TableName: this.#table,
          Item: { ...itemKey.incidentAck(audit, key), ack, ttl: expiresAt },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      );
      return true;
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return false;
      throw err;
    }
  }

  async unacknowledge(audit: string, key: string): Promise<boolean> {
    try {
      await this.#client.send(
        new DeleteCommand({
          TableName: this.#table,
          Key: itemKey.incidentAck(audit, key),
          ConditionExpression: "attribute_exists(pk)",
        }),
      );
      return true;
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return false;
      throw err;
    }
  }

  async markPagerResolved(audit: string, key: string, at: string, expiresAt: number): Promise<void> {
    await this.#client.send(
      new PutCommand({
        TableName: this.#table,
        Item: { ...itemKey.incidentPagerResolved(audit, key), pagerResolvedAt: at, ttl: expiresAt },
      }),
    );
  }

  async addEvent(event: IncidentEvent, id: string, expiresAt: number): Promise<void> {
    await this.#client.send(
      new PutCommand({ TableName: this.#table, Item: eventItem(event, expiresAt, id) }),
    );
  }
}
