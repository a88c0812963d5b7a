import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { auditTableDefinition, ensureTable, statusTableDefinition } from "@fleet-auditor/store";
import { describe, expect, it } from "vitest";
import { landscapeDeps, recordState, upgradeFleet } from "../../fixtures/upgrade/scenario.ts";
import { decodeItems } from "../../fixtures/upgrade/state-file.ts";
import { useDynamo } from "../../helpers/dynamo.ts";
import { MemoryPublisher } from "../../helpers/memory-ports.ts";

// A rollback must not fire, change or resolve anything by itself either: the release before
// labels reads snapshot items by `entry.instanceID` and the flat finding (`state`, `operation`,
// `edge`…). Today's engine records the same scenario that release recorded; every snapshot item
// it writes must carry, beside today's fields, exactly what that release wrote for it.

const env = useDynamo([]);

type Item = {
  pk: string;
  sk: string;
  entry?: { finding?: Record<string, unknown> } & Record<string, unknown>;
};

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

/** Only the fields `reference` has, recursively: what the earlier release reads of `value`. */
function asReadBy(reference: unknown, value: unknown): unknown {
  if (!reference || typeof reference !== "object" || Array.isArray(reference)) return value;
  if (!value || typeof value !== "object") return value;
  const v = value as Record<string, unknown>;
  return Object.fromEntries(Object.entries(reference).map(([k, r]) => [k, asReadBy(r, v[k])]));
}

describe("a rollback over state today's release wrote", () => {
  it("finds in every snapshot item what the release before labels wrote for it (state before-label-model)", async () => {
    const recorded = (
      await import("../../fixtures/upgrade/state-before-label-model.json", { with: { type: "json" } })
    ).default as { audit: unknown[] };
    const before = new Map(
      (decodeItems(recorded.audit) as Item[])
        .filter((i) => i.sk.startsWith("RT#"))
        .map((i) => [`${i.pk} ${i.sk}`, i.entry]),
    );
    const tables = { audit: "audit-rollback", status: "status-rollback" };
    await ensureTable(env.db.client, auditTableDefinition(tables.audit));
    await ensureTable(env.db.client, statusTableDefinition(tables.status));
    await recordState(landscapeDeps(env.db.client, tables, upgradeFleet(), new MemoryPublisher()));

    const today = (await scan(tables.audit)).filter((i) => i.sk.startsWith("RT#"));
    expect(today.length).toBe(before.size);
    for (const item of today) {
      const then = before.get(`${item.pk} ${item.sk}`);
      expect(then, item.sk).toBeDefined();
      // `firstSeenAt` is when a run first saw the finding, for every audit since onsets are the
      // finding's own `startsAt` (the release before kept an edge finding's onset there); that
      // release reads it only for "since" in its messages, so it is compared as a time, not a value.
      const { firstSeenAt: seenThen, ...rest } = then as Record<string, unknown>;
      const { firstSeenAt: seenNow, ...now } = asReadBy(then, item.entry) as Record<string, unknown>;
      expect(now, item.sk).toEqual(rest);
      expect(Number.isNaN(Date.parse(String(seenNow))), item.sk).toBe(false);
      expect(String(seenNow) >= String(seenThen), item.sk).toBe(true);
    }
  });
});
