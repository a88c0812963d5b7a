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

  it("tells chat only reminders, and moves the pager to one page: one trigger, the old alerts resolved once (state flat-form-beside-labels)", async () => {
    const state = (
      await import("../../fixtures/upgrade/state-flat-form-beside-labels.json", { with: { type: "json" } })
    ).default as { audit: unknown[]; status: unknown[] };
    const tables = { audit: "audit-up-routes", status: "status-up-routes" };
    await ensureTable(env.db.client, auditTableDefinition(tables.audit));
    await ensureTable(env.db.client, statusTableDefinition(tables.status));
    for (const Item of decodeItems(state.audit))
      await env.db.client.send(new PutCommand({ TableName: tables.audit, Item }));
    const publisher = new MemoryPublisher();
    const base = landscapeDeps(env.db.client, tables, upgradeFleet(), publisher);
    // A stage with chat and a pager: the release before paged each critical chat incident.
    const deps = {
      ...base,
      settings: { ...base.settings, incidentMessages: { maxNew: 10 }, pagerMessages: true },
    };
    const before = await deps.ports.store.loadSnapshot("failing");
    const oldPages = new Set(
      [...before.values()]
        .filter((e) => e.phase === "firing" && e.notifiedAt !== null && e.finding.severity === "critical")
        .map((e) => e.incident?.key),
    );
    expect(oldPages.size).toBeGreaterThan(1);
    expect(oldPages.has(undefined)).toBe(false);

    const later = at(4 + 24 * 60 + 1);
    const summary = await runAudit(
      { ...deps, hooks: { clock: () => later } },
      { audit: "failing", scheduledTime: later.toISOString() },
    );
    expect(summary.notified.failed).toBe(0);
    const incidentOf = (m: (typeof publisher.published)[number]) =>
      (JSON.parse(JSON.parse(m.message).default) as { incident?: { key: string; status: string } }).incident;
    // Chat and the digest: reminders only, in the threads of before.
    const chat = publisher.published.filter((m) => !m.topics?.includes("critical"));
    expect(chat.length).toBeGreaterThan(0);
    for (const m of chat) expect(m.attributes.kinds).toEqual(["reminder"]);
    for (const m of chat.filter((x) => x.attributes.format === "incident"))
      expect(
        oldPages.has(incidentOf(m)?.key) ||
          [...before.values()].some((e) => e.incident?.key === incidentOf(m)?.key),
      ).toBe(true);
    // The pager: one trigger under the pager route's new key, and each old alert resolved once.
    const paged = publisher.published.filter((m) => m.topics?.includes("critical")).map(incidentOf);
    const triggers = paged.filter((i) => i?.status === "firing");
    expect(triggers).toHaveLength(1);
    expect(oldPages.has(triggers[0]?.key)).toBe(false);
    const resolved = paged.filter((i) => i?.status === "resolved").map((i) => i?.key);
    expect(new Set(resolved)).toEqual(oldPages);
    expect(resolved).toHaveLength(oldPages.size);

    // The next run: nothing more for the pager, old or new.
    publisher.published.length = 0;
    const next = at(4 + 25 * 60 + 1);
    await runAudit(
      { ...deps, hooks: { clock: () => next } },
      { audit: "failing", scheduledTime: next.toISOString() },
    );
    expect(publisher.published.filter((m) => m.topics?.includes("critical"))).toEqual([]);
  });
});
