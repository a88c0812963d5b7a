import { PutCommand } from "@aws-sdk/lib-dynamodb";
import type { RunReportStore, Transition } from "@fleet-auditor/audit";
import { auditTableDefinition, ensureTable, statusTableDefinition } from "@fleet-auditor/store";
import { runAudit, showRun } from "@fleet-auditor/use-cases";
import { describe, expect, it } from "vitest";
import { at, landscapeDeps, upgradeFleet } from "../../fixtures/upgrade/scenario.ts";
import { decodeItems } from "../../fixtures/upgrade/state-file.ts";
import { useDynamo } from "../../helpers/dynamo.ts";
import { MemoryPublisher } from "../../helpers/memory-ports.ts";

// An upgrade must not fire, change or resolve anything by itself, and a day later tells only the
// reminders it owes. The state below was written by
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

      // A day later the KEB audits remind of what still fails, and nothing else: the stored
      // findings, silences and incidents read as they were written.
      for (const audit of ["failing", "expired"]) {
        const later = at(4 + 24 * 60 + 1);
        const summary = await runAudit(
          { ...deps, hooks: { clock: () => later } },
          { audit, scheduledTime: later.toISOString() },
        );
        expect(summary.complete, audit).toBe(true);
        const kinds = new Set(summary.transitions.map((t) => t.kind));
        expect([...kinds], audit).toEqual(["reminder"]);
        // Findings the recorded silences cover stay quiet: no reminder is owed them.
        expect(
          summary.transitions.some((t) => t.silencedBy !== undefined),
          audit,
        ).toBe(false);
      }
      expect(publisher.published.length).toBeGreaterThan(0);
      for (const m of publisher.published) expect(m.attributes.kinds).toEqual(["reminder"]);

      // A run report the earlier release wrote reads back as transitions of today's model.
      const view = await showRun(
        { reports: deps.ports.reports as RunReportStore, store: deps.ports.store, audits: deps.ports.audits },
        "recorded-1",
      );
      expect(view?.source).toBe("report");
      const first = view?.transitions[0] as Transition;
      expect(first.finding.labels.instance).toBe(first.key);
      expect(first.finding.summary).toBe(first.finding.labels.shoot);
    });
  }
});
