import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { auditTableDefinition, ensureTable, statusTableDefinition } from "@fleet-auditor/store";
import { runAudit } from "@fleet-auditor/use-cases";
import { describe, expect, it } from "vitest";
import { at, landscapeDeps, upgradeFleet } from "../../fixtures/upgrade/scenario.ts";
import { decodeItems } from "../../fixtures/upgrade/state-file.ts";
import { useDynamo } from "../../helpers/dynamo.ts";
import { MemoryPublisher } from "../../helpers/memory-ports.ts";

// An upgrade must not fire, change or resolve anything by itself. The state below was written by
// an earlier release (see test/fixtures/upgrade/); today's engine runs over the same fleet and the
// same Application messages and must find nothing to tell: no transition, no message, no write.

const env = useDynamo([]);

const RECORDED = ["before-label-model", "flat-form-beside-labels"];

describe("an upgrade over state an earlier release wrote", () => {
  for (const name of RECORDED) {
    it(`tells, changes and resolves nothing (state ${name})`, async () => {
      const state = (await import(`../../fixtures/upgrade/state-${name}.json`, { with: { type: "json" } }))
        .default as { audit: unknown[]; status: unknown[] };
      const tables = { audit: `audit-up-${name}`, status: `status-up-${name}` };
      await ensureTable(env.db.client, auditTableDefinition(tables.audit));
      await ensureTable(env.db.client, statusTableDefinition(tables.status));
      for (const [table, items] of [
        [tables.audit, state.audit],
        [tables.status, state.status],
      ] as const) {
        for (const Item of decodeItems(items))
          await env.db.client.send(new PutCommand({ TableName: table, Item }));
      }
      const publisher = new MemoryPublisher();
      const deps = landscapeDeps(env.db.client, tables, upgradeFleet(), publisher);
      for (const audit of ["failing", "expired", "applications"]) {
        const summary = await runAudit(
          { ...deps, hooks: { clock: () => at(4) } },
          { audit, scheduledTime: at(4).toISOString() },
        );
        expect(summary, audit).toMatchObject({
          complete: true,
          transitions: [],
          writes: { snapshot: 0, deleted: 0 },
        });
        expect(summary.flagged, audit).toBeGreaterThan(0);
      }
      expect(publisher.published).toEqual([]);
    });
  }
});
