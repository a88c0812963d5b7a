import {
  DEFAULT_POLICY,
  type DiffResult,
  defaultRoutes,
  diffSnapshot,
  type Finding,
  type Silence,
  type SnapshotEntry,
} from "@fleet-auditor/audit";
import { KEB_GROUP_BY, kebPresenter } from "@fleet-auditor/keb-audits";
import { renderPagerMessages } from "@fleet-auditor/render";
import { describe, expect, it } from "vitest";
import { edited, finding } from "../../helpers/findings.ts";
import { ctx } from "../../helpers/transitions.ts";

// An incident is opened by the first finding that fires with a set of the audit's groupBy values
// while none with those values is open; later findings with those values join it; a finding
// stays in it until it resolves; it ends with its last member, and the next firing with the
// same values opens a new one under a new key.

const T0 = Date.parse("2026-12-01T08:00:00.000Z");
const at = (minutes: number): Date => new Date(T0 + minutes * 60_000);
const inRegion = (id: string, region: string, reason = "err_provisioning"): Finding =>
  edited(finding(id), (_, op) => ({ region, operation: { ...op, errorReason: reason } }));

/** Runs the diff and applies every write, as a committed run would. */
function run(
  snapshot: Map<string, SnapshotEntry>,
  findings: Finding[],
  minute: number,
  landscape = "prod",
  silences: Silence[] = [],
) {
  const result: DiffResult = diffSnapshot({
    silences,
    audit: "failing",
    previous: snapshot,
    findings,
    problemKey: kebPresenter.problemKey,
    incidents: { landscape, routes: defaultRoutes(KEB_GROUP_BY) },
    complete: true,
    now: at(minute),
    policy: DEFAULT_POLICY,
  });
  const next = new Map(snapshot);
  for (const c of result.changes) c.op === "put" ? next.set(c.entry.key, c.entry) : next.delete(c.key);
  const incidentOf = (key: string) => result.transitions.find((t) => t.key === key)?.incident?.key;
  return { result, next, incidentOf };
}

describe("incidents", () => {
  it("are opened by the first finding of a set of groupBy values and joined by the next, in a run and later", () => {
    const first = run(new Map(), [inRegion("a", "eu-1"), inRegion("b", "eu-1"), inRegion("c", "us-1")], 0);
    const eu = first.incidentOf("a");
    expect(eu).toMatch(/^inc-/);
    expect(first.incidentOf("b")).toBe(eu);
    expect(first.incidentOf("c")).not.toBe(eu);
    const later = run(
      first.next,
      [inRegion("a", "eu-1"), inRegion("b", "eu-1"), inRegion("c", "us-1"), inRegion("d", "eu-1")],
      10,
    );
    expect(later.incidentOf("d")).toBe(eu);
    expect(later.next.get("a")?.incident?.key).toBe(eu);
  });

  it("say how many members still fire after a partial recovery, and none once the last resolves", () => {
    const fleet = ["a", "b", "c", "d"].map((id) => inRegion(id, "eu-1"));
    const first = run(new Map(), fleet, 0);
    expect(first.result.transitions.map((t) => t.incident?.firing)).toEqual([4, 4, 4, 4]);
    const partial = run(first.next, fleet.slice(0, 1), 10);
    expect(partial.result.transitions.map((t) => [t.kind, t.incident?.firing, t.incident?.ended])).toEqual([
      ["resolved", 1, undefined],
      ["resolved", 1, undefined],
      ["resolved", 1, undefined],
    ]);
    const over = run(partial.next, [], 20);
    expect(over.result.transitions.map((t) => [t.incident?.firing, t.incident?.ended])).toEqual([[0, true]]);
  });

  it("begin when they open: the end of their oldest member and a later member's older onset move the start no more", () => {
    const older = (id: string, startsAt: string) => ({ ...inRegion(id, "eu-1"), startsAt });
    const opened = run(
      new Map(),
      [older("a", "2026-11-30T08:00:00.000Z"), older("b", "2026-11-30T10:00:00.000Z")],
      0,
    );
    const began = opened.result.transitions[0]?.incident?.startsAt;
    expect(began).toBe("2026-11-30T08:00:00.000Z");
    // a recovers; c, which failed even earlier, joins: the incident still began when it opened.
    const later = run(
      opened.next,
      [older("b", "2026-11-30T10:00:00.000Z"), older("c", "2026-11-29T08:00:00.000Z")],
      10,
    );
    expect(later.result.transitions.map((t) => [t.key, t.incident?.startsAt])).toEqual([
      ["c", began],
      ["a", began],
    ]);
  });

  it("keep a finding whose reason changes in the incident it fired in, and tell the change there", () => {
    const first = run(new Map(), [inRegion("a", "eu-1"), inRegion("b", "eu-1")], 0);
    const incident = first.incidentOf("a");
    const changed = edited(inRegion("a", "eu-1", "err_timeout"), (_, op) => ({
      operation: { ...op, operationID: "op-2" },
    }));
    const second = run(first.next, [changed, inRegion("b", "eu-1")], 10);
    expect(second.result.transitions).toMatchObject([
      { kind: "changed", key: "a", incident: { key: incident } },
    ]);
    // A new finding with the changed values opens an incident of its own.
    const third = run(
      second.next,
      [changed, inRegion("b", "eu-1"), inRegion("c", "eu-1", "err_timeout")],
      20,
    );
    expect(third.incidentOf("c")).not.toBe(incident);
  });

  it("end with their last member; the next firing with the same values opens a new one, under a new key", () => {
    const first = run(new Map(), [inRegion("a", "eu-1"), inRegion("b", "eu-1")], 0);
    const incident = first.incidentOf("a");
    const one = run(first.next, [inRegion("b", "eu-1")], 10);
    expect(one.result.transitions).toMatchObject([
      { kind: "resolved", key: "a", incident: { key: incident } },
    ]);
    const none = run(one.next, [], 20);
    expect(none.result.transitions).toMatchObject([
      { kind: "resolved", key: "b", incident: { key: incident } },
    ]);
    const again = run(none.next, [inRegion("a", "eu-1")], 30);
    expect(again.incidentOf("a")).toMatch(/^inc-/);
    expect(again.incidentOf("a")).not.toBe(incident);
  });

  it("begin at the earliest onset of the members they open with; each transition's since is its own onset", () => {
    const early = { ...inRegion("a", "eu-1"), startsAt: at(-50).toISOString() };
    const late = { ...inRegion("b", "eu-1"), startsAt: at(-5).toISOString() };
    const first = run(new Map(), [late], 0);
    expect(first.result.transitions[0]).toMatchObject({
      since: at(-5).toISOString(),
      firstSeenAt: at(0).toISOString(),
      incident: { startsAt: at(-5).toISOString() },
    });
    // A member that joins later keeps its own onset; the incident began when it opened.
    const second = run(first.next, [late, early], 10);
    expect(second.result.transitions).toMatchObject([
      { key: "a", since: at(-50).toISOString(), incident: { startsAt: at(-5).toISOString() } },
    ]);
    // An onset after the run, or none, is not believed: first seen stands in.
    const future = run(new Map(), [{ ...inRegion("c", "us-1"), startsAt: at(60).toISOString() }], 0);
    expect(future.result.transitions[0]?.since).toBe(at(0).toISOString());
  });

  it("are keyed by landscape too, and entries that fired before incidents share one stable key", () => {
    const prod = run(new Map(), [inRegion("a", "eu-1")], 0, "prod");
    const dev = run(new Map(), [inRegion("a", "eu-1")], 0, "dev");
    expect(prod.incidentOf("a")).not.toBe(dev.incidentOf("a"));
    // Firing before incidents: no incident stored. A new member joins the one their values make,
    // the same in every run, and writing nothing for the others.
    const legacy = new Map(
      [...prod.next].map(([k, e]) => {
        const { incident: _, ...before } = e;
        return [k, before as SnapshotEntry];
      }),
    );
    const a = run(legacy, [inRegion("a", "eu-1"), inRegion("b", "eu-1")], 10).incidentOf("b");
    const b = run(legacy, [inRegion("a", "eu-1"), inRegion("b", "eu-1")], 20).incidentOf("b");
    expect(a).toBe(b);
    expect(run(legacy, [inRegion("a", "eu-1")], 10).result.changes).toEqual([]);
  });

  describe("and the pager", () => {
    const warning = (id: string, region: string): Finding => {
      const f = inRegion(id, region);
      return { ...f, severity: "warning" };
    };
    const pagerOf = (r: ReturnType<typeof run>) =>
      Object.fromEntries(
        r.result.transitions.flatMap((t) => {
          const paged = t.incidents?.pager?.pager;
          return paged ? [[t.key, paged]] : [];
        }),
      );
    const pageOf = (r: ReturnType<typeof run>, key: string) =>
      r.result.transitions.find((t) => t.key === key)?.incidents?.pager?.key;

    it("opens one page for the critical findings of an audit, whatever their region or reason, and ends it with the last", () => {
      // a critical, b a warning with the same values: the pager hears of a alone.
      const opened = run(new Map(), [inRegion("a", "eu-1"), warning("b", "eu-1"), warning("c", "us-1")], 0);
      expect(pagerOf(opened)).toEqual({ a: "trigger" });
      expect(opened.incidentOf("c")).toBeDefined();
      // Critical members elsewhere and for other reasons join the one page.
      const joined = run(
        opened.next,
        [
          inRegion("a", "eu-1"),
          warning("b", "eu-1"),
          inRegion("d", "us-1", "err_timeout"),
          inRegion("e", "ap-1"),
        ],
        10,
      );
      expect(pagerOf(joined)).toEqual({});
      expect(pageOf(joined, "d")).toBe(pageOf(opened, "a"));
      expect(pageOf(joined, "e")).toBe(pageOf(opened, "a"));
      // a and e resolve, d stays critical: nothing for the pager. d resolves: the page ends,
      // though the warning b keeps its chat incident open.
      const one = run(joined.next, [warning("b", "eu-1"), inRegion("d", "us-1", "err_timeout")], 20);
      expect(pagerOf(one)).toEqual({});
      const none = run(one.next, [warning("b", "eu-1")], 30);
      expect(pagerOf(none)).toEqual({ d: "resolve" });
      expect(none.result.transitions[0]?.incidents?.pager).toMatchObject({ ended: true, firing: 0 });
      // The last (warning) member's end is no news for the pager.
      const ended = run(none.next, [], 40);
      expect(ended.result.transitions[0]?.incident).toMatchObject({ ended: true });
      expect(pagerOf(ended)).toEqual({});
    });

    it("keeps a page open while its incident lasts, when its member is no longer critical", () => {
      const opened = run(new Map(), [inRegion("a", "eu-1")], 0);
      expect(pagerOf(opened)).toEqual({ a: "trigger" });
      const milder = edited(warning("a", "eu-1"), (_, op) => ({ operation: { ...op, operationID: "op-2" } }));
      const eased = run(opened.next, [milder], 10);
      expect(eased.result.transitions[0]).toMatchObject({
        kind: "changed",
        incidents: { pager: { firing: 1 } },
      });
      expect(pagerOf(eased)).toEqual({});
      const ended = run(eased.next, [], 20);
      expect(pagerOf(ended)).toEqual({ a: "resolve" });
    });

    it("hears of a warning incident that turns critical, and of a critical one ending in one run", () => {
      const opened = run(new Map(), [warning("a", "eu-1")], 0);
      expect(pagerOf(opened)).toEqual({});
      const worse = edited(inRegion("a", "eu-1", "err_timeout"), (_, op) => ({
        operation: { ...op, operationID: "op-2" },
      }));
      const escalated = run(opened.next, [worse], 10);
      expect(escalated.result.transitions[0]?.kind).toBe("changed");
      expect(pagerOf(escalated)).toEqual({ a: "trigger" });
      const ended = run(escalated.next, [], 20);
      expect(pagerOf(ended)).toEqual({ a: "resolve" });
      expect(ended.result.transitions[0]?.incident?.ended).toBe(true);
    });

    it("is not told of a silenced critical firing, and hears it once the silence is over", () => {
      const silence: Silence = {
        id: "s-1",
        match: [{ name: "region", op: "=", value: "eu-1" }],
        startsAt: at(-1).toISOString(),
        endsAt: at(15).toISOString(),
        createdBy: "ops",
        comment: "maintenance",
      };
      const quiet = run(new Map(), [inRegion("a", "eu-1")], 0, "prod", [silence]);
      expect(quiet.result.transitions[0]?.silencedBy).toBe("s-1");
      expect(pagerOf(quiet)).toEqual({});
      const still = run(quiet.next, [inRegion("a", "eu-1")], 10, "prod", [silence]);
      expect(pagerOf(still)).toEqual({});
      const loud = run(still.next, [inRegion("a", "eu-1")], 20, "prod", [silence]);
      expect(loud.result.transitions[0]).toMatchObject({
        kind: "firing",
        incidents: { pager: { pager: "trigger" } },
      });
    });

    // docs/notifications.md, "The pager": a silence that began after a member's news was told
    // does not hold back the pager's start when it turns critical.
    it("is told at once of a member told as a warning before its silence that turns critical while silenced", () => {
      const opened = run(new Map(), [{ ...finding("a"), severity: "warning" }], 0);
      const silence: Silence = {
        id: "s-a",
        match: [{ name: "instance", op: "=", value: "a" }],
        startsAt: at(1).toISOString(),
        endsAt: at(100).toISOString(),
        createdBy: "ops",
        comment: "maintenance on a",
      };
      const worse = edited(finding("a"), (_, op) => ({ operation: { ...op, operationID: "op-2" } }));
      const r = run(opened.next, [worse], 10, "prod", [silence]);
      expect(r.result.transitions).toMatchObject([
        { kind: "changed", silencedBy: "s-a", incidents: { pager: { pager: "trigger" } } },
      ]);
      const onPager = r.result.transitions.map((t) => ({ ...t, incident: t.incidents?.pager }));
      const paged = renderPagerMessages(ctx, onPager).map(
        (m) =>
          (JSON.parse(JSON.parse(m.message).default) as { incident?: { status: string } }).incident?.status,
      );
      expect(paged).toEqual(["firing"]);
    });
  });
});
