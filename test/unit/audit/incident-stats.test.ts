import { type IncidentRecord, incidentStats } from "@fleet-auditor/audit";
import { describe, expect, it } from "vitest";
import { incidentRecord, manyIncidentRecords } from "../../helpers/incident-records.ts";

// A week's window, and times in it by day and hour: every figure below can be counted by hand.
const WEEK = { since: new Date("2026-11-23T00:00:00.000Z"), until: new Date("2026-11-30T00:00:00.000Z") };
const at = (day: number, hour = 0, minute = 0): string =>
  new Date(Date.UTC(2026, 10, day, hour, minute)).toISOString();
const MINUTE = 60_000;

/** An incident opened at `day`/`hour` that lasted `minutes` (open when undefined). */
const lasting = (
  key: string,
  opened: string,
  minutes: number | undefined,
  change: Partial<IncidentRecord> = {},
) =>
  incidentRecord({
    key,
    openedAt: opened,
    endedAt:
      minutes === undefined ? undefined : new Date(Date.parse(opened) + minutes * MINUTE).toISOString(),
    ...change,
  });

describe("incident statistics", () => {
  it("count what opened and what ended in the window, and what is still open at its end", () => {
    const records = [
      lasting("before-ended-in", at(22, 20), 8 * 60), // ended 23rd 04:00: ended
      lasting("in-in", at(24), 30), // opened and ended
      lasting("in-open", at(25), undefined), // opened, open
      lasting("before-open", at(20), undefined), // open
      lasting("before-before", at(20), 60), // left out
      lasting("after", at(30, 1), undefined), // left out: opened after the window
      lasting("in-after", at(29, 23), 120), // opened, open at the window's end
    ];
    const stats = incidentStats(records, WEEK);
    expect(stats).toMatchObject({
      since: "2026-11-23T00:00:00.000Z",
      until: "2026-11-30T00:00:00.000Z",
      opened: 3,
      ended: 2,
      open: 3,
    });
    expect(stats.timeToResolve).toEqual({ count: 2, p50Ms: 30 * MINUTE, p90Ms: 8 * 60 * MINUTE });
  });

  it("give nearest-rank percentiles of the time to resolve: p50 of 1, 2, 3, 4 minutes is 2, p90 of 1..10 is 9", () => {
    const four = [1, 2, 3, 4].map((m) => lasting(`k${m}`, at(24, m), m));
    expect(incidentStats(four, WEEK).timeToResolve).toEqual({
      count: 4,
      p50Ms: 2 * MINUTE,
      p90Ms: 4 * MINUTE,
    });
    const ten = [7, 3, 10, 1, 5, 9, 2, 8, 4, 6].map((m) => lasting(`k${m}`, at(25, m), m));
    expect(incidentStats(ten, WEEK).timeToResolve).toEqual({
      count: 10,
      p50Ms: 5 * MINUTE,
      p90Ms: 9 * MINUTE,
    });
    const one = [lasting("only", at(26), 42)];
    expect(incidentStats(one, WEEK).timeToResolve).toEqual({
      count: 1,
      p50Ms: 42 * MINUTE,
      p90Ms: 42 * MINUTE,
    });
  });

  it("leave the percentiles out, not zero, when nothing ended in the window", () => {
    const stats = incidentStats([lasting("open", at(24), undefined)], WEEK);
    expect(stats.timeToResolve).toEqual({ count: 0 });
    expect(stats.byAudit).toEqual([{ value: "failing", opened: 1, ended: 0 }]);
    expect(incidentStats([], WEEK)).toMatchObject({
      opened: 0,
      ended: 0,
      open: 0,
      noisiest: [],
      flapping: [],
    });
  });

  it("break down by audit, largest opened first, each with its own percentiles", () => {
    const records = [
      lasting("f1", at(24), 10),
      lasting("f2", at(24, 1), 20),
      lasting("f3", at(24, 2), 30),
      lasting("e1", at(24, 3), 60, { audit: "expired" }),
      lasting("e2", at(22), 3 * 24 * 60, { audit: "expired" }), // opened before: ended only
      lasting("a1", at(24, 4), undefined, { audit: "applications" }),
      lasting("a2", at(24, 5), undefined, { audit: "applications" }),
    ];
    expect(incidentStats(records, WEEK).byAudit).toEqual([
      { value: "failing", opened: 3, ended: 3, p50Ms: 20 * MINUTE, p90Ms: 30 * MINUTE },
      { value: "applications", opened: 2, ended: 0 },
      { value: "expired", opened: 1, ended: 2, p50Ms: 60 * MINUTE, p90Ms: 3 * 24 * 60 * MINUTE },
    ]);
  });

  it("take a reason or region from the values it was grouped by, else from its members' common labels, else call it mixed", () => {
    const records = [
      lasting("grouped", at(24), 10, {
        values: { region: "us-east-1", reason: "quota" },
        common: { reason: "x" },
      }),
      lasting("common", at(24, 1), 20, { values: { region: "us-east-1" }, common: { reason: "quota" } }),
      lasting("mixed", at(24, 2), 30, { values: {}, common: {} }),
      // A label named like an Object property is a label like any other, never the prototype's.
      lasting("proto", at(24, 3), 40, { values: {}, common: { region: "constructor" } }),
    ];
    const stats = incidentStats(records, WEEK);
    expect(stats.byReason.map((r) => [r.value, r.opened])).toEqual([
      ["(mixed)", 2],
      ["quota", 2],
    ]);
    expect(stats.byRegion.map((r) => [r.value, r.opened])).toEqual([
      ["us-east-1", 2],
      ["(mixed)", 1],
      ["constructor", 1],
    ]);
  });

  it("name the noisiest incidents of the window by events, then members, then key, five unless asked", () => {
    const records = [
      lasting("quiet", at(24), 10, { events: 2 }),
      lasting("b-loud", at(24), 10, { events: 30, members: 4 }),
      lasting("a-loud", at(24), 10, { events: 30, members: 4 }),
      lasting("wide", at(24), 10, { events: 30, members: 90 }),
      lasting("long-open", at(10), undefined, { events: 12 }), // opened long before, open in the window
      lasting("gone", at(10), 60, { events: 99 }), // ended before the window
      lasting("mid", at(25), 10, { events: 5 }),
      lasting("low", at(25), 10, { events: 3 }),
    ];
    const stats = incidentStats(records, WEEK);
    expect(stats.noisiest.map((n) => n.key)).toEqual(["wide", "a-loud", "b-loud", "long-open", "mid"]);
    expect(stats.noisiest[0]).toEqual({
      key: "wide",
      audit: "failing",
      route: "default",
      values: { region: "eu-central-1" },
      events: 30,
      members: 90,
      pages: 1,
      reminders: 0,
      changes: 0,
    });
    expect(incidentStats(records, WEEK, { noisiest: 2 }).noisiest.map((n) => n.key)).toEqual([
      "wide",
      "a-loud",
    ]);
  });

  it("mark as flapping the values whose episodes opened and ended in the window three times, each still one opening and one end", () => {
    const records = [
      lasting("eu-3", at(26), 10),
      lasting("eu-1", at(24), 10),
      lasting("eu-2", at(25), 10),
      // Before the window, or still open: not episodes that opened and ended in it.
      lasting("eu-0", at(22), 10),
      lasting("eu-4", at(27), undefined),
      // The same values on another route, or of another audit: other incidents.
      lasting("pager-1", at(24), 10, { route: "pager" }),
      lasting("pager-2", at(25), 10, { route: "pager" }),
      lasting("us-1", at(24), 10, { values: { reason: "quota", region: "us-east-1" } }),
      lasting("us-2", at(25), 10, { values: { region: "us-east-1", reason: "quota" } }),
    ];
    const stats = incidentStats(records, WEEK);
    expect(stats.flapping).toEqual([
      {
        audit: "failing",
        route: "default",
        values: { region: "eu-central-1" },
        episodes: 3,
        keys: ["eu-1", "eu-2", "eu-3"],
      },
    ]);
    expect(stats).toMatchObject({ opened: 8, ended: 7, open: 1 });
    // Two episodes flap when asked: the values' order in a record does not make another group.
    const two = incidentStats(records, WEEK, { flapAfter: 2 }).flapping;
    expect(two.map((f) => [f.route, f.episodes, f.keys])).toEqual([
      ["default", 3, ["eu-1", "eu-2", "eu-3"]],
      ["default", 2, ["us-1", "us-2"]],
      ["pager", 2, ["pager-1", "pager-2"]],
    ]);
    // One episode is never flapping, whatever is asked.
    expect(incidentStats(records.slice(0, 1), WEEK, { flapAfter: 1 }).flapping).toEqual([]);
  });

  it("add up, on a generated week, to the same totals in every breakdown and find its flapping series", () => {
    const week = manyIncidentRecords(2_000, 7);
    const stats = incidentStats(week.records, week, { noisiest: 10 });
    const total = (rows: Array<{ opened: number; ended: number }>) =>
      rows.reduce((sum, r) => ({ opened: sum.opened + r.opened, ended: sum.ended + r.ended }), {
        opened: 0,
        ended: 0,
      });
    for (const rows of [stats.byAudit, stats.byReason, stats.byRegion])
      expect(total(rows)).toEqual({ opened: stats.opened, ended: stats.ended });
    expect(stats.opened).toBe(2_000);
    expect(stats.ended + stats.open).toBe(2_000);
    expect(stats.noisiest).toHaveLength(10);
    expect(stats.flapping.length).toBeGreaterThan(0);
    // Every episode the generator made flap is in a flapping group (others may flap by chance).
    const flapping = new Set(stats.flapping.flatMap((f) => f.keys));
    const flapped = week.records.filter((r) => r.flapping);
    expect(flapped.length).toBeGreaterThan(0);
    expect(flapped.filter((r) => !flapping.has(r.key))).toEqual([]);
    const p50 = stats.timeToResolve.p50Ms ?? 0;
    expect(p50).toBeGreaterThan(0);
    expect(stats.timeToResolve.p90Ms).toBeGreaterThanOrEqual(p50);
  });
});
