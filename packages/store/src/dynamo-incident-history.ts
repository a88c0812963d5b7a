import { type DynamoDBDocumentClient, paginateQuery } from "@aws-sdk/lib-dynamodb";
import type { IncidentEvent, IncidentHistory, IncidentQuery, IncidentRecord } from "@fleet-auditor/audit";
import { itemKey } from "./audit-table.ts";
import { batchGet } from "./batch-get.ts";

/**
 * Incident history as the audit runs wrote it (`incident-items.ts`): a list reads each audit's
 * partition of records, leaving out on the server those that ended before `since`; a timeline is
 * one incident's events, oldest first. Both are bounded by the TTL (90 days by default).
 */
export class DynamoIncidentHistory implements IncidentHistory {
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
    const out: IncidentRecord[] = [];
    const pages = paginateQuery(
      { client: this.#client },
      {
        TableName: this.#table,
        KeyConditionExpression: "pk = :pk",
        ...(filter ? { FilterExpression: filter } : {}),
        ExpressionAttributeValues: values,
      },
    );
    for await (const page of pages)
      for (const item of page.Items ?? []) out.push(item.record as IncidentRecord);
    return out;
  }

  async incidentTimeline(
    audits: readonly string[],
    key: string,
  ): Promise<{ record: IncidentRecord; events: IncidentEvent[] } | undefined> {
    const [found] = await batchGet(
      this.#client,
      this.#table,
      audits.map((a) => itemKey.incident(a, key)),
    );
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
    return { record: found.record as IncidentRecord, events };
  }
}
