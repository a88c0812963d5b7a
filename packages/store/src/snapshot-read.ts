import { type DynamoDBDocumentClient, paginateQuery } from "@aws-sdk/lib-dynamodb";
import type { SnapshotEntry } from "@fleet-auditor/audit";
import { snapshotEntryOf } from "./legacy/snapshot-entry.ts";

/** The sort-key prefix of a snapshot item: `RT#` + the finding's key (see `itemKey`). */
const PREFIX = "RT#";

/**
 * Sort-key ranges, each read by a Query of its own, at once: a Query answers at most 1 MB (about
 * 1,000 snapshot items) a round trip, so four ranges read a snapshot of 5,000 in two round trips
 * instead of five. Together they cover every key that starts with `RT#`, whatever the instance ID
 * holds (every such key sorts below `RT$`, as `#` sorts below `$`), so no snapshot item is missed
 * and no key changes. KEB's instance IDs are UUIDs, so boundaries on the first hex digit split a
 * snapshot about evenly; an ID that is exactly a boundary is read by two ranges and kept once.
 */
const SNAPSHOT_RANGES: ReadonlyArray<readonly [string, string]> = [
  [PREFIX, `${PREFIX}4`],
  [`${PREFIX}4`, `${PREFIX}8`],
  [`${PREFIX}8`, `${PREFIX}c`],
  [`${PREFIX}c`, "RT$"],
];

/**
 * Every snapshot item of one audit partition, by finding key in key order (as one Query would
 * return them): the ranges of `SNAPSHOT_RANGES` read in parallel, each paged to its end, with
 * consistent reads (the snapshot the previous run committed must be seen whole).
 */
export async function readSnapshot(
  client: DynamoDBDocumentClient,
  tableName: string,
  pk: string,
): Promise<Map<string, SnapshotEntry>> {
  const ranges = await Promise.all(
    SNAPSHOT_RANGES.map(async ([from, to]) => {
      const items: Array<Record<string, unknown>> = [];
      const pages = paginateQuery(
        { client },
        {
          TableName: tableName,
          KeyConditionExpression: "pk = :pk AND sk BETWEEN :from AND :to",
          ExpressionAttributeValues: { ":pk": pk, ":from": from, ":to": to },
          ConsistentRead: true,
        },
      );
      for await (const page of pages) items.push(...(page.Items ?? []));
      return items;
    }),
  );
  const entries = new Map<string, SnapshotEntry>();
  for (const item of ranges.flat()) {
    // The last range ends at `RT$` itself, which no snapshot item can be.
    if (!String(item.sk).startsWith(PREFIX)) continue;
    // An item a release before this one wrote reads as today's; its key is unchanged.
    const entry = snapshotEntryOf(item.entry as SnapshotEntry);
    entries.set(entry.key, entry);
  }
  return entries;
}
