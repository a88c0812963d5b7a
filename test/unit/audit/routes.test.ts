import {
  DEFAULT_POLICY,
  DEFAULT_ROUTE,
  type DiffResult,
  defaultRoutes,
  diffSnapshot,
  type Finding,
  keyPrintOf,
  parseMatchers,
  type Route,
  routesOf,
  type SnapshotEntry,
  unchangedSince,
} from "@fleet-auditor/audit";
import { KEB_GROUP_BY, kebPresenter } from "@fleet-auditor/keb-audits";
import { describe, expect, it } from "vitest";
import { edited, finding } from "../../helpers/findings.ts";

// Routes as Alertmanager's, flattened: each picks findings by matchers for one receiver, keeps
// incidents of its own grouped its own way, and stops the walk unless it `continue`s. A storm past
// a route's cap of new incidents is one roll-up, followed in one thread until it is over.

const T0 = Date.parse("2026-12-01T08:00:00.000Z");
const at = (minutes: number): Date => new Date(T0 + minutes * 60_000);
const runtime = (
  id: string,
  region: string,
  reason = "err_provisioning",
  severity: Finding["severity"] = "critical",
) =>
  edited(finding(id, "failed", severity), (_, op) => ({ region, operation: { ...op, errorReason: reason } }));

function run(snapshot: Map<string, SnapshotEntry>, findings: Finding[], minute: number, routes: Route[]) {
  const result: DiffResult = diffSnapshot({
    audit: "failing",
    previous: snapshot,
    findings,
    problemKey: kebPresenter.problemKey,
    incidents: { landscape: "prod", routes },
    complete: true,
    now: at(minute),
    policy: DEFAULT_POLICY,
  });
  const next = new Map(snapshot);
  for (const c of result.changes) c.op === "put" ? next.set(c.entry.key, c.entry) : next.delete(c.key);
  return { result, next };
}

const route = (r: Partial<Route> & Pick<Route, "name">): Route => ({
  receiver: "incidents",
  matchers: [],
  groupBy: KEB_GROUP_BY,
  continue: false,
  maxNew: 10,
  ...r,
});

describe("routes", () => {
  it("take a finding on each matching route until one does not continue, matching audit and severity as labels", () => {
    const routes = [
      route({ name: "eu", matchers: parseMatchers("region=~eu-.*"), continue: true }),
      route({ name: "pages", receiver: "critical", matchers: parseMatchers("severity=critical") }),
      route({ name: "rest" }),
    ];
    const names = (f: Finding) => routesOf(routes, "failing", f).map((r) => r.name);
    expect(names(runtime("a", "eu-1"))).toEqual(["eu", "pages"]);
    expect(names(runtime("b", "us-1"))).toEqual(["pages"]);
    expect(names(runtime("c", "us-1", "err_x", "warning"))).toEqual(["rest"]);
    expect(names(runtime("d", "eu-1", "err_x", "warning"))).toEqual(["eu", "rest"]);
    expect(
      routesOf(
        [route({ name: "x", matchers: parseMatchers("audit=expired") })],
        "failing",
        runtime("e", "eu-1"),
      ),
    ).toEqual([]);
  });

  it("keep incidents of their own: the default route's keys are those of before routes, the others' hash their name", () => {
    const alone = run(new Map(), [runtime("a", "eu-1")], 0, [route({ name: DEFAULT_ROUTE })]);
    const both = run(new Map(), [runtime("a", "eu-1")], 0, [
      route({ name: DEFAULT_ROUTE, continue: true }),
      route({ name: "other" }),
    ]);
    const [t] = both.result.transitions;
    expect(t?.incident?.key).toBe(alone.result.transitions[0]?.incident?.key);
    expect(t?.incidents?.[DEFAULT_ROUTE]?.key).toBe(t?.incident?.key);
    expect(t?.incidents?.other?.key).toMatch(/^inc-/);
    expect(t?.incidents?.other?.key).not.toBe(t?.incident?.key);
    const entry = both.next.get("a");
    expect(entry?.incident?.key).toBe(t?.incident?.key);
    expect(entry?.routes?.other?.key).toBe(t?.incidents?.other?.key);
  });

  it("join a firing finding to a route it comes to match, as news for that route alone", () => {
    const chatOnly = [route({ name: DEFAULT_ROUTE, continue: true })];
    const first = run(new Map(), [runtime("a", "eu-1")], 0, chatOnly);
    const withPager = defaultRoutes(KEB_GROUP_BY);
    const later = run(first.next, [runtime("a", "eu-1")], 10, withPager);
    expect(later.result.transitions).toHaveLength(1);
    const [t] = later.result.transitions;
    expect(t).toMatchObject({ kind: "firing", joined: true });
    expect(Object.keys(t?.incidents ?? {})).toEqual(["pager"]);
    expect(t?.incidents?.pager?.pager).toBe("trigger");
    expect(later.next.get("a")?.incident?.key).toBe(first.next.get("a")?.incident?.key);
    // Once joined, a run changes nothing.
    const steady = run(later.next, [runtime("a", "eu-1")], 20, withPager);
    expect(steady.result.transitions).toEqual([]);
    expect(steady.result.changes).toEqual([]);
  });

  it("resolve the pages of before routes once, when their findings join the pager route", () => {
    // Before routes, the default route's critical incidents were paged under their own keys.
    const chatOnly = [route({ name: DEFAULT_ROUTE, continue: true })];
    const fleet = [runtime("a", "eu-1"), runtime("b", "us-1"), runtime("c", "us-1", "err_x", "warning")];
    const before = run(new Map(), fleet, 0, chatOnly);
    const oldKeys = ["a", "b"].map((k) => before.next.get(k)?.incident?.key);
    const upgrade = run(before.next, fleet, 10, defaultRoutes(KEB_GROUP_BY));
    expect(upgrade.result.legacyPages?.map((p) => p.key).sort()).toEqual([...oldKeys].sort());
    const refs = upgrade.result.legacyPages?.flatMap((p) =>
      p.refs.map((r) => upgrade.result.transitions[r]?.key),
    );
    expect(refs?.sort()).toEqual(["a", "b"]);
    const triggers = new Set(
      upgrade.result.transitions.flatMap((t) =>
        t.incidents?.pager?.pager === "trigger" ? [t.incidents.pager.key] : [],
      ),
    );
    expect(triggers.size).toBe(1);
    const after = run(upgrade.next, fleet, 20, defaultRoutes(KEB_GROUP_BY));
    expect(after.result.legacyPages).toBeUndefined();
    expect(after.result.transitions).toEqual([]);
  });

  describe("in a storm", () => {
    const regions = Array.from({ length: 15 }, (_, i) => `region-${String(i).padStart(2, "0")}`);
    const fleet = regions.flatMap((r, i) => [runtime(`${r}-a`, r), ...(i < 3 ? [runtime(`${r}-b`, r)] : [])]);
    const chat = [route({ name: DEFAULT_ROUTE, maxNew: 10 })];

    it("roll the new incidents past the cap into one, largest first, and keep their news in its thread", () => {
      const storm = run(new Map(), fleet, 0, chat);
      const threads = new Map<string, string | undefined>();
      for (const t of storm.result.transitions)
        threads.set(t.incident?.key as string, t.incident?.thread?.key);
      expect(threads.size).toBe(15);
      const rolled = [...threads.values()].filter(Boolean);
      expect(rolled).toHaveLength(5);
      expect(new Set(rolled).size).toBe(1);
      // The three incidents of two runtimes are told on their own.
      for (const r of regions.slice(0, 3))
        expect(storm.result.transitions.find((t) => t.key === `${r}-a`)?.incident?.thread).toBeUndefined();
      // A rolled-up incident's end later goes to the roll-up's thread, which lasts while one of its incidents does.
      const rolledKey = storm.result.transitions.find((t) => t.incident?.thread)?.key as string;
      const partial = run(
        storm.next,
        fleet.filter((f) => f.key !== rolledKey),
        10,
        chat,
      );
      expect(partial.result.transitions).toHaveLength(1);
      // Its incident ended; the roll-up still has the other four incidents' members firing.
      expect(partial.result.transitions[0]?.incident).toMatchObject({
        ended: true,
        firing: 0,
        thread: { key: rolled[0], firing: 4 },
      });
      expect(partial.result.transitions[0]?.incident?.thread?.ended).toBeUndefined();
      const over = run(partial.next, [], 20, chat);
      const ends = over.result.transitions.filter((t) => t.incident?.thread);
      expect(ends).toHaveLength(4);
      for (const t of ends) expect(t.incident?.thread).toEqual({ key: rolled[0], firing: 0, ended: true });
    });

    it("page at most the pager route's cap of incidents and one roll-up page, opened and ended once", () => {
      const pager = [route({ name: "pager", receiver: "critical", maxNew: 3 })];
      const storm = run(new Map(), fleet, 0, pager);
      const pages = new Set(
        storm.result.transitions.flatMap((t) => {
          const i = t.incidents?.pager;
          return i?.pager === "trigger" ? [i.thread?.key ?? i.key] : [];
        }),
      );
      expect(pages.size).toBe(4);
      const over = run(storm.next, [], 10, pager);
      const resolved = new Set(
        over.result.transitions.flatMap((t) => {
          const i = t.incidents?.pager;
          return i?.pager === "resolve" ? [i.thread?.key ?? i.key] : [];
        }),
      );
      expect(resolved).toEqual(pages);
    });
  });

  it("give every finding the key of its incident on each route as a label, so a silence of an incident holds whatever its members become", () => {
    const routes = defaultRoutes(KEB_GROUP_BY);
    const first = run(new Map(), [runtime("a", "eu-1"), runtime("b", "eu-1")], 0, routes);
    const key = first.result.transitions[0]?.incident?.key as string;
    const silences = [
      {
        id: "s-incident",
        match: [{ name: "incident_default", op: "=" as const, value: key }],
        startsAt: at(0).toISOString(),
        endsAt: at(100).toISOString(),
        createdBy: "ops",
        comment: "INC-1",
      },
    ];
    const diff = (snapshot: Map<string, SnapshotEntry>, findings: Finding[], minute: number) =>
      diffSnapshot({
        audit: "failing",
        previous: snapshot,
        findings,
        problemKey: kebPresenter.problemKey,
        incidents: { landscape: "prod", routes },
        complete: true,
        now: at(minute),
        policy: DEFAULT_POLICY,
        silences,
      });
    // a's reason changes (it stays in the incident), c joins it: both silenced by the incident's key.
    const changed = edited(runtime("a", "eu-1", "err_timeout"), (_, op) => ({
      operation: { ...op, operationID: "op-2" },
    }));
    const later = diff(first.next, [changed, runtime("b", "eu-1"), runtime("c", "eu-1")], 10);
    expect(later.transitions.map((t) => [t.key, t.kind, t.silencedBy])).toEqual([
      ["a", "changed", "s-incident"],
      ["c", "firing", "s-incident"],
    ]);
    // The next incident with the same values has a key of its own: not silenced.
    const ended = run(first.next, [], 20, routes);
    const again = diff(ended.next, [runtime("d", "eu-1")], 30);
    expect(again.transitions.map((t) => [t.key, t.silencedBy])).toEqual([["d", undefined]]);
  });

  it("remind on their own interval: a route of 4 hours hears a reminder every 4 hours, the digest and the others every 24", () => {
    const routes = [
      route({ name: DEFAULT_ROUTE, continue: true }),
      route({ name: "oncall", repeatIntervalMs: 4 * 60 * 60_000 }),
    ];
    let state = run(new Map(), [runtime("a", "eu-1")], 0, routes);
    const heard: Array<[number, string[], boolean]> = [];
    for (let hour = 1; hour <= 24; hour++) {
      state = run(state.next, [runtime("a", "eu-1")], hour * 60, routes);
      for (const t of state.result.transitions)
        heard.push([hour, Object.keys(t.incidents ?? {}).sort(), t.routesOnly === true]);
    }
    expect(heard).toEqual([
      [4, ["oncall"], true],
      [8, ["oncall"], true],
      [12, ["oncall"], true],
      [16, ["oncall"], true],
      [20, ["oncall"], true],
      [24, ["default", "oncall"], false],
    ]);
    // A steady hour between reminders writes nothing.
    const quiet = run(state.next, [runtime("a", "eu-1")], 25 * 60, routes);
    expect(quiet.result.changes).toEqual([]);
  });

  it("are part of the fingerprint: a run whose finding takes a route it is not on is no steady run", () => {
    const chatOnly = [route({ name: DEFAULT_ROUTE, continue: true })];
    const first = run(new Map(), [runtime("a", "eu-1")], 0, chatOnly);
    const print = new Map([...first.next.values()].map((e) => [e.key, keyPrintOf(e, () => "")]));
    const input = {
      audit: "failing",
      findings: [runtime("a", "eu-1")],
      problemKey: () => "",
      complete: true,
      now: at(10),
      policy: DEFAULT_POLICY,
    };
    expect(unchangedSince(print, { ...input, incidents: { routes: chatOnly } })).toBe(true);
    expect(unchangedSince(print, { ...input, incidents: { routes: defaultRoutes(KEB_GROUP_BY) } })).toBe(
      false,
    );
  });
});
