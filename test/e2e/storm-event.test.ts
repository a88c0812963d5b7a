import { DynamoSilenceStore } from "@fleet-auditor/store";
import { describe, expect, it } from "vitest";
import { useLandscapeFunctions } from "../helpers/landscape-functions.ts";

// One event, one page: a 3,000-runtime outage across 33 regions for 3 reasons (99 incidents of
// the default route), its partial and its full recovery, driven through the audit, Slack and pager
// functions on loopback (`useLandscapeFunctions`). With the default routes: the pager gets one
// trigger and one resolve; chat at most 11 messages a run, and no top-level post for an incident
// rolled up in the storm; no title says resolved while a runtime still fails; every message names
// its incident key.

const { kit, dynamo, pd, slack, T0, HOUR, runAt } = useLandscapeFunctions("storm", {
  size: 20,
  seed: 7,
  flagged: 0,
});

const REGIONS = Array.from({ length: 33 }, (_, i) => `region-${String(i).padStart(2, "0")}`);
const REASONS = ["err_provisioning", "err_quota", "err_timeout"];
const FAILING_TITLE = /resolved/i;

describe("a 3,000-runtime event across 33 regions", () => {
  it("is one page, a few chat messages a run, no top-level post for what was rolled up, and a silenced incident quiet", async () => {
    const ids = kit.sim.fleet.create(3_000).map((c) => c.instanceID);
    ids.forEach((id, i) => {
      const runtime = kit.sim.fleet.get(id);
      if (!runtime) throw new Error(`no runtime ${id}`);
      runtime.region = REGIONS[i % 33] as string;
      kit.sim.fleet.fail(id, "provision");
      const op = runtime.operations.at(-1);
      if (op?.error) op.error = { ...op.error, reason: REASONS[Math.floor(i / 33) % 3] as string };
    });
    const topLevel = () => slack.api.topLevel().length;
    const before = topLevel();

    // Hour 0: 99 incidents open. The pager: one trigger. Chat: 10 threads and one roll-up.
    const storm = await runAt(0);
    expect(storm.summary.flagged).toBe(3_000);
    expect(storm.paged.map((p) => p.incident?.status)).toEqual(["firing"]);
    const page = storm.paged[0]?.incident?.key as string;
    expect(pd.pagerduty.alerts.map((a) => [a.dedupKey, a.status])).toEqual([[page, "triggered"]]);
    expect(storm.chat.length).toBeLessThanOrEqual(11);
    expect(storm.chat).toHaveLength(11);
    const threads = new Set(storm.chat.map((m) => m.threadId));
    expect(threads.size).toBe(11);
    expect(topLevel() - before).toBe(11);
    // Every message names its incident key, in its structured form and in what people read.
    for (const m of [...storm.chat, ...storm.paged.map((doc) => ({ doc }))]) {
      expect(m.doc.incident?.key).toMatch(/^inc-/);
      expect(JSON.stringify(m.doc)).toContain(m.doc.incident?.key as string);
    }
    for (const post of slack.api.topLevel().slice(before))
      expect(JSON.stringify(post.blocks)).toMatch(/inc-[\w-]{24}/);

    // An operator silences one incident of its own thread by its key (`silences add --incident`):
    // whatever becomes of its runtimes, its thread hears nothing more.
    const silenced = storm.chat.find((m) => m.doc.transitions.length + (m.doc.omitted ?? 0) < 100);
    const silencedKey = silenced?.doc.incident?.key as string;
    await new DynamoSilenceStore({ client: dynamo.db.client, tableName: "storm" }).add({
      id: "sil-incident",
      audit: "failing",
      match: [{ name: "incident_default", op: "=", value: silencedKey }],
      startsAt: new Date(T0).toISOString(),
      endsAt: new Date(T0 + 48 * HOUR).toISOString(),
      createdBy: "oncall",
      comment: "INC-1: known",
    });

    // Hour 1: eleven regions recover whole, the others two runtimes in three. Chat: news in the
    // threads it has, at most 11 messages, no new top-level post; no incident (or roll-up) still
    // failing is titled resolved; the page stays open.
    const recovered = ids.filter((_, i) => i % 33 < 11 || Math.floor(i / 99) % 3 !== 0);
    for (const id of recovered) kit.sim.fleet.recover(id);
    const partial = await runAt(1);
    expect(partial.chat.length).toBeGreaterThan(0);
    expect(partial.chat.length).toBeLessThanOrEqual(11);
    for (const m of partial.chat) expect(threads.has(m.threadId), m.threadId).toBe(true);
    expect(topLevel() - before).toBe(11);
    for (const m of partial.chat.filter((x) => x.doc.incident?.status === "firing"))
      expect(m.doc.subject, JSON.stringify(m.doc.incident)).not.toMatch(FAILING_TITLE);
    expect(partial.chat.some((m) => m.doc.incident?.status === "firing")).toBe(true);
    expect(partial.paged).toEqual([]);
    expect(partial.chat.map((m) => m.doc.incident?.key)).not.toContain(silencedKey);
    expect(partial.summary.notified.suppressed).toBeGreaterThan(0);

    // Hour 2: everything recovers. The page is resolved once; every end goes to a thread it had.
    const gone = new Set(recovered);
    for (const id of ids.filter((id) => !gone.has(id))) kit.sim.fleet.recover(id);
    const over = await runAt(2);
    expect(over.paged.map((p) => [p.incident?.key, p.incident?.status])).toEqual([[page, "resolved"]]);
    expect(pd.pagerduty.alerts.map((a) => [a.dedupKey, a.status])).toEqual([[page, "resolved"]]);
    expect(over.chat.length).toBeLessThanOrEqual(11);
    expect(over.chat.map((m) => m.doc.incident?.key)).not.toContain(silencedKey);
    for (const m of over.chat) {
      expect(threads.has(m.threadId), m.threadId).toBe(true);
      expect(m.doc.incident?.status).toBe("resolved");
    }
    expect(topLevel() - before).toBe(11);
  }, 180_000);
});
