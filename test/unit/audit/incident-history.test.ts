import {
  DEFAULT_POLICY,
  DEFAULT_ROUTE,
  type Delivery,
  diffSnapshot,
  type EndedEpisode,
  endedEpisodes,
  type Finding,
  INCIDENT_ITEM_BYTES,
  type IncidentEvent,
  type IncidentRecord,
  incidentsWithNews,
  incidentWrites,
  type SnapshotEntry,
  toldQuietly,
} from "@fleet-auditor/audit";
import { KEB_GROUP_BY, kebPresenter } from "@fleet-auditor/keb-audits";
import { describe, expect, it } from "vitest";
import { failing } from "../../helpers/incident-landscape.ts";

const T0 = Date.parse("2026-12-01T08:00:00.000Z");
const HOUR = 3_600_000;
const at = (hour: number): string => new Date(T0 + hour * HOUR).toISOString();

/**
 * An audit's runs on two routes (chat by the audit's incidents, a pager route by audit), each
 * diffed, told as `deliver` says, committed, and its history folded as the run's commit writes it.
 */
class History {
  snapshot = new Map<string, SnapshotEntry>();
  records = new Map<string, IncidentRecord>();
  events: IncidentEvent[] = [];

  run(findings: Finding[], hour: number, deliver: (told: number[]) => Partial<Delivery> = () => ({})) {
    const now = new Date(T0 + hour * HOUR);
    const diff = diffSnapshot({
      audit: "failing",
      previous: this.snapshot,
      findings,
      problemKey: kebPresenter.problemKey,
      incidents: {
        landscape: "prod-eu",
        routes: [
          {
            name: DEFAULT_ROUTE,
            receiver: "incidents",
            matchers: [],
            groupBy: KEB_GROUP_BY,
            continue: true,
            maxNew: 10,
          },
          {
            name: "pager",
            receiver: "critical",
            matchers: [],
            groupBy: ["audit"],
            continue: true,
            maxNew: 3,
          },
        ],
      },
      complete: true,
      now,
      policy: DEFAULT_POLICY,
    });
    const delivery: Delivery = {
      ...toldQuietly(diff),
      quiet: undefined,
      ...deliver([...diff.transitions.keys()]),
    };
    const keys = incidentsWithNews(diff, delivery);
    const before = new Map([...this.records].filter(([k]) => keys.includes(k)));
    const writes = incidentWrites(
      {
        audit: "failing",
        runId: `run-${hour}`,
        at: now.toISOString(),
        receivers: new Map([
          [DEFAULT_ROUTE, "incidents"],
          ["pager", "critical"],
        ]),
      },
      diff,
      delivery,
      before,
    );
    for (const c of diff.changes) {
      const told = c.transition === undefined || delivery.told.has(c.transition);
      if (!told) continue;
      c.op === "put" ? this.snapshot.set(c.entry.key, c.entry) : this.snapshot.delete(c.key);
    }
    for (const w of writes) {
      this.records.set(w.record.key, w.record);
      this.events.push(w.event);
    }
    return { diff, writes };
  }

  chat(): IncidentRecord[] {
    return [...this.records.values()].filter((r) => r.route === DEFAULT_ROUTE);
  }
}

describe("an incident's history", () => {
  it("keeps its episode: opened, joined, changed, reminded, left and ended, with counts a hand count gives", () => {
    const h = new History();
    const a = failing("a", "eu-central-1");
    const b = failing("b", "eu-central-1");
    const c = failing("c", "eu-central-1");
    h.run([a, b], 0);
    h.run([a, b, c], 1);
    h.run([failing("a", "eu-central-1", "err_provisioning", "op-2"), b, c], 2);
    h.run([failing("a", "eu-central-1", "err_provisioning", "op-2"), b, c], 26); // 24 h: reminders
    h.run([c], 27);
    h.run([], 30);

    const [record] = h.chat();
    expect(h.chat()).toHaveLength(1);
    expect(record).toMatchObject({
      audit: "failing",
      route: "default",
      receiver: "incidents",
      values: { region: "eu-central-1", reason: "err_provisioning" },
      openedAt: at(0),
      endedAt: at(30),
      durationMs: 30 * HOUR,
      firing: 0,
      peak: 3,
      members: 3,
      changes: 1,
      reminders: 3,
      events: 6,
      severity: "critical",
    });
    expect(record?.examples.map((e) => e.key)).toEqual(["a", "b", "c"]);
    expect(record?.common).toMatchObject({ region: "eu-central-1", state: "failed", plan: "aws" });
    expect(record?.common).not.toHaveProperty("instance");

    const timeline = h.events.filter((e) => e.key === record?.key);
    expect(timeline.map((e) => [e.at, e.what, e.firing])).toEqual([
      [at(0), ["opened"], 2],
      [at(1), ["joined"], 3],
      [at(2), ["changed"], 3],
      [at(26), ["reminded"], 3],
      [at(27), ["left"], 1],
      [at(30), ["ended", "left"], 0],
    ]);
    expect(timeline[0]).toMatchObject({ joined: 2, runId: "run-0" });
  });

  it("keeps the pager route's incident apart, with the pages it sent: one trigger and one resolve", () => {
    const h = new History();
    h.run([failing("a", "eu-central-1"), failing("b", "us-east-1")], 0);
    h.run([failing("b", "us-east-1")], 1);
    h.run([], 2);
    const pager = [...h.records.values()].filter((r) => r.route === "pager");
    expect(pager).toHaveLength(1);
    expect(pager[0]).toMatchObject({
      receiver: "critical",
      values: { audit: "failing" },
      members: 2,
      pages: 2,
    });
    const pages = h.events.filter((e) => e.key === pager[0]?.key).map((e) => e.page);
    expect(pages).toEqual(["trigger", undefined, "resolve"]);
    expect(h.chat()).toHaveLength(2);
    expect(h.chat().every((r) => r.pages === 0)).toBe(true);
  });

  it("records only what was told: a refused message's news is recorded by the run that sends it again", () => {
    const h = new History();
    const refused = (all: number[]) => ({ told: new Set<number>(), refused: new Set(all) });
    const first = h.run([failing("a", "eu-central-1")], 0, refused);
    expect(first.writes).toEqual([]);
    expect(incidentsWithNews(first.diff, { told: new Set(), refused: new Set([0]) })).toEqual([]);
    h.run([failing("a", "eu-central-1")], 1);
    const [record] = h.chat();
    expect(record).toMatchObject({ openedAt: at(1), members: 1, events: 1 });
    expect(h.events.filter((e) => e.key === record?.key).map((e) => e.what)).toEqual([["opened"]]);
  });

  it("counts members held back by a silence, naming the silence, without telling them", () => {
    const h = new History();
    const now = new Date(T0);
    const silence = {
      id: "sil-1",
      match: [{ name: "instance", value: "b", op: "=" as const }],
      startsAt: new Date(T0 - HOUR).toISOString(),
      endsAt: new Date(T0 + 5 * HOUR).toISOString(),
      createdBy: "ops",
      comment: "known",
    };
    const diff = diffSnapshot({
      audit: "failing",
      previous: new Map(),
      findings: [failing("a", "eu-central-1"), failing("b", "eu-central-1")],
      problemKey: kebPresenter.problemKey,
      incidents: { landscape: "prod-eu", groupBy: KEB_GROUP_BY },
      complete: true,
      now,
      policy: DEFAULT_POLICY,
      silences: [silence],
    });
    const told = new Set(diff.transitions.flatMap((t, i) => (t.silencedBy ? [] : [i])));
    const [write] = incidentWrites(
      { audit: "failing", runId: "r", at: now.toISOString(), receivers: new Map() },
      diff,
      { told, refused: new Set() },
      new Map(),
    );
    expect(write?.event).toMatchObject({
      joined: 2,
      silenced: 1,
      silences: ["sil-1"],
      what: ["opened", "silenced"],
    });
    expect(h.records.size).toBe(0);
  });

  it("keeps a 20,000-member incident to counts and a few examples, far below an item's bytes", () => {
    const h = new History();
    const many = Array.from({ length: 20_000 }, (_, i) => failing(`rt-${i}`, "eu-central-1"));
    const { writes } = h.run(many, 0);
    const chat = writes.find((w) => w.record.route === DEFAULT_ROUTE);
    expect(chat?.record).toMatchObject({ members: 20_000, firing: 20_000, peak: 20_000 });
    expect(chat?.record.examples).toHaveLength(5);
    expect(chat?.event.examples).toHaveLength(3);
    for (const w of writes) {
      expect(Buffer.byteLength(JSON.stringify(w.record))).toBeLessThan(2_500);
      expect(Buffer.byteLength(JSON.stringify(w.event))).toBeLessThan(1_500);
    }
  });

  it("drops examples, then common labels, when keys near DynamoDB's limit would make an item too large", () => {
    const h = new History();
    const long = (i: number): Finding => {
      const f = failing(`k${i}`, "eu-central-1");
      return { ...f, key: `${String(i).padStart(4, "0")}${"k".repeat(990)}`, summary: "x".repeat(4_000) };
    };
    const { writes } = h.run(
      Array.from({ length: 30 }, (_, i) => {
        const f = long(i);
        return {
          ...f,
          labels: {
            ...f.labels,
            ...Object.fromEntries(Array.from({ length: 20 }, (_, j) => [`l${j}`, "v".repeat(250)])),
          },
        };
      }),
      0,
    );
    for (const w of writes) {
      expect(Buffer.byteLength(JSON.stringify(w.record))).toBeLessThanOrEqual(INCIDENT_ITEM_BYTES);
      expect(Buffer.byteLength(JSON.stringify(w.event))).toBeLessThanOrEqual(INCIDENT_ITEM_BYTES);
      expect(w.record.members).toBe(30);
    }
    const chat = writes.find((w) => w.record.route === DEFAULT_ROUTE);
    expect(chat?.record.examples).toEqual([]);
    expect(chat?.record.common).toMatchObject({ region: "eu-central-1" });
  });
});

describe("flapping: an incident whose values keep opening and ending", () => {
  const episode = (key: string, openedHour: number, endedHour: number, thread = key): EndedEpisode => ({
    route: DEFAULT_ROUTE,
    values: { state: "failed", reason: "err_provisioning", region: "eu-central-1" },
    key,
    thread,
    openedAt: at(openedHour),
    endedAt: at(endedHour),
  });
  const open = (ended: EndedEpisode[], hour: number) =>
    diffSnapshot({
      audit: "failing",
      previous: new Map(),
      findings: [failing("a", "eu-central-1")],
      problemKey: kebPresenter.problemKey,
      incidents: {
        groupBy: KEB_GROUP_BY,
        episodes: { ended, windowMs: 24 * HOUR, after: 3 },
      },
      complete: true,
      now: new Date(T0 + hour * HOUR),
      policy: DEFAULT_POLICY,
    }).transitions[0]?.incident;

  it("opens flapping when the window holds `after` episodes with its values, it included, in the thread of the latest before it", () => {
    expect(open([episode("e1", 1, 2)], 5)).not.toHaveProperty("flapping");
    expect(open([episode("e1", 1, 2), episode("e2", 3, 4)], 5)?.flapping).toEqual({
      episodes: 3,
      postedIn: "e2",
    });
    // The latest episode posted in an earlier one's thread: so does this one.
    expect(open([episode("e1", 1, 2), episode("e2", 3, 4, "e1")], 5)?.flapping).toEqual({
      episodes: 3,
      postedIn: "e1",
    });
    // An episode that opened before the window, or another route's, does not count.
    expect(open([episode("e1", 1, 2), episode("e2", 3, 4)], 26)).not.toHaveProperty("flapping");
    expect(open([{ ...episode("e1", 1, 2), route: "pager" }, episode("e2", 3, 4)], 5)).not.toHaveProperty(
      "flapping",
    );
  });

  it("keeps the episodes that ended within the window, adding those that ended now, and writes nothing when none changed", () => {
    const h = new History();
    h.run([failing("a", "eu-central-1")], 0);
    const { writes } = h.run([], 1);
    const ended = endedEpisodes([episode("old", 0, 1)], writes, at(30), 24 * HOUR);
    expect(ended?.map((e) => [e.route, e.key === h.chat()[0]?.key, e.endedAt])).toEqual([
      [DEFAULT_ROUTE, true, at(1)],
      ["pager", false, at(1)],
    ]);
    expect(endedEpisodes([episode("e1", 5, 6)], [], at(7), 24 * HOUR)).toBeUndefined();
    expect(endedEpisodes([episode("e1", 5, 6)], [], at(40), 24 * HOUR)).toEqual([]);
  });
});
