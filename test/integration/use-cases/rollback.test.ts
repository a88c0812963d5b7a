import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import type { Silence, SnapshotEntry } from "@fleet-auditor/audit";
import { auditTableDefinition, ensureTable, statusTableDefinition } from "@fleet-auditor/store";
import { describe, expect, it } from "vitest";
import { snapshotEntryOf } from "../../../packages/store/src/legacy/snapshot-entry.ts";
import { landscapeDeps, recordState, upgradeFleet } from "../../fixtures/upgrade/scenario.ts";
import { decodeItems } from "../../fixtures/upgrade/state-file.ts";
import { useDynamo } from "../../helpers/dynamo.ts";
import { MemoryPublisher } from "../../helpers/memory-ports.ts";

// A rollback must not fire, change or resolve anything by itself either. The release before the
// flat form was retired (state flat-form-beside-labels) reads a snapshot item by its `key` and
// the model's fields of its finding, and a silence by its label matchers (`match`); today's engine
// records the same scenario that release recorded, and every snapshot item it writes must hold
// exactly what that release reads of the item it wrote, and nothing in the flat form beside it.
// (A rollback past that release, to one before labels, is no longer possible: see CHANGELOG.md.)

const env = useDynamo([]);

type Item = { pk: string; sk: string; entry?: SnapshotEntry; silence?: Silence };

async function scan(table: string): Promise<Item[]> {
  const items: Item[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await env.db.client.send(new ScanCommand({ TableName: table, ExclusiveStartKey: start }));
    items.push(...((page.Items ?? []) as Item[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/**
 * An item as the release before reads it: it reads an entry's `incident` by its key, opening and
 * values, and knows nothing of routes. What routes add (the other routes' incidents, a storm's
 * roll-up thread, reminders on a route's own interval, the start fixed at opening) it leaves alone
 * and writes back as it found it.
 */
function asBefore(entry: SnapshotEntry | undefined): SnapshotEntry | undefined {
  if (!entry) return entry;
  const { routes: _routes, remindedOn: _reminded, incident, ...rest } = entry;
  if (!incident) return rest;
  const { thread: _thread, startsAt: _startsAt, ...own } = incident;
  return { ...rest, incident: own };
}

describe("a rollback over state today's release wrote", () => {
  it("finds in every snapshot item what the release before reads of its own (state flat-form-beside-labels)", async () => {
    const recorded = (
      await import("../../fixtures/upgrade/state-flat-form-beside-labels.json", { with: { type: "json" } })
    ).default as { audit: unknown[] };
    const before = new Map(
      (decodeItems(recorded.audit) as Item[])
        .filter((i) => i.sk.startsWith("RT#"))
        .map((i) => [`${i.pk} ${i.sk}`, snapshotEntryOf(i.entry as SnapshotEntry)]),
    );
    const tables = { audit: "audit-rollback", status: "status-rollback" };
    await ensureTable(env.db.client, auditTableDefinition(tables.audit));
    await ensureTable(env.db.client, statusTableDefinition(tables.status));
    await recordState(landscapeDeps(env.db.client, tables, upgradeFleet(), new MemoryPublisher()));

    const items = await scan(tables.audit);
    const today = items.filter((i) => i.sk.startsWith("RT#"));
    expect(today.length).toBe(before.size);
    for (const item of today) {
      expect(asBefore(item.entry), item.sk).toEqual(before.get(`${item.pk} ${item.sk}`));
      expect(item.entry, `${item.sk} keeps no flat form`).not.toHaveProperty("instanceID");
      expect(item.entry?.finding, `${item.sk} keeps no flat form`).not.toHaveProperty("instanceID");
    }
    const silences = items.filter((i) => i.silence);
    expect(silences.length).toBeGreaterThan(0);
    for (const { silence } of silences) {
      expect(silence?.match.length, silence?.id).toBeGreaterThan(0);
      expect(silence, `${silence?.id} keeps no named fields`).not.toHaveProperty("matchers");
    }
  });
});
