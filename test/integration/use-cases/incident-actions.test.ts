import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { DigestMessage } from "@fleet-auditor/audit";
import { ActionV1Schema } from "@fleet-auditor/render";
import {
  auditTableDefinition,
  DynamoAuditStore,
  DynamoIncidentHistory,
  DynamoSilenceStore,
  documentClient,
  ensureTable,
} from "@fleet-auditor/store";
import {
  type AuditRunDeps,
  actOnIncident,
  type IncidentActionDeps,
  runAudit,
} from "@fleet-auditor/use-cases";
import { beforeEach, describe, expect, it } from "vitest";
import { useDynamo } from "../../helpers/dynamo.ts";
import { useKebSimulator } from "../../helpers/keb.ts";
import { MemoryPublisher } from "../../helpers/memory-ports.ts";
import { testAudits } from "../../helpers/test-audits.ts";

// Acting on incidents as a Slack button, a PagerDuty webhook or `incidents ack` does, against the
// history and snapshot real runs wrote on dynalite: one chat incident and one pager incident (both
// by audit) hold the same failing runtimes, so an acknowledgement of one is mirrored to the other.

const kit = useKebSimulator({ fleet: { size: 10, seed: 1, flagged: 0 } });
const env = useDynamo([]);

const T0 = Date.UTC(2026, 10, 1, 0);
const HOUR = 3_600_000;
let tableNo = 0;
let run: AuditRunDeps;
let acting: IncidentActionDeps;
let history: DynamoIncidentHistory;
let silences: DynamoSilenceStore;
let runs: MemoryPublisher;
let told: MemoryPublisher;

beforeEach(async () => {
  kit.sim.fleet.reset([]);
  const table = `actions-${++tableNo}`;
  const raw = new DynamoDBClient({
    endpoint: env.db.endpoint,
    region: "local",
    credentials: { accessKeyId: "l", secretAccessKey: "l" },
  });
  await ensureTable(raw, auditTableDefinition(table));
  const client = documentClient(raw);
  const store = new DynamoAuditStore({ client, tableName: table });
  history = new DynamoIncidentHistory({ client, tableName: table });
  silences = new DynamoSilenceStore({ client, tableName: table });
  runs = new MemoryPublisher();
  told = new MemoryPublisher();
  run = {
    ports: { audits: testAudits({ client: kit.client() }), store, publisher: runs, silences },
    settings: {
      landscape: "prod-eu",
      incidentMessages: { maxNew: 10 },
      pagerMessages: true,
      routes: [
        {
          name: "default",
          receiver: "incidents",
          matchers: [],
          groupBy: ["audit"],
          continue: true,
          maxNew: 10,
        },
        { name: "pager", receiver: "critical", matchers: [], groupBy: ["audit"], continue: false, maxNew: 3 },
      ],
    },
  };
  acting = {
    ports: { actions: history, store, silences, publisher: told },
    audits: ["failing", "expired"],
    settings: { landscape: "prod-eu" },
    hooks: { clock: () => new Date(T0 + 2 * HOUR) },
  };
});

const runAt = (h: number) =>
  runAudit(
    { ...run, hooks: { clock: () => new Date(T0 + h * HOUR) } },
    { audit: "failing", now: new Date(T0 + h * HOUR).toISOString() },
  );
const failNew = (n: number): string[] =>
  kit.sim.fleet.create(n).map((c) => {
    kit.sim.fleet.fail(c.instanceID, "provision");
    return c.instanceID;
  });
const keysOf = async () => {
  const all = await history.listIncidents(["failing"], {});
  return {
    chat: all.find((r) => r.route === "default")?.key as string,
    pager: all.find((r) => r.route === "pager")?.key as string,
  };
};
const docOf = (m: DigestMessage | undefined) =>
  ActionV1Schema.parse(JSON.parse(JSON.parse(m?.message ?? "{}").default));

describe("acting on an incident", () => {
  it("acknowledges the incident named and the pager incident sharing its members, once, tells its thread and the pager, and stops its reminders but not its changes", async () => {
    const [a] = failNew(2) as [string, string];
    await runAt(0);
    const { chat, pager } = await keysOf();

    const acked = await actOnIncident(acting, {
      kind: "acknowledge",
      key: chat,
      by: "slack:U1 (alice)",
      comment: "on it",
    });
    expect(acked.outcome).toBe("applied");
    expect(acked.keys.sort()).toEqual([chat, pager].sort());
    const shown = await history.incidentTimeline(["failing"], chat);
    expect(shown?.record.acknowledged).toEqual({
      by: "slack:U1 (alice)",
      at: new Date(T0 + 2 * HOUR).toISOString(),
      comment: "on it",
    });
    expect(shown?.events.at(-1)).toMatchObject({
      what: ["acknowledged"],
      by: "slack:U1 (alice)",
      comment: "on it",
    });
    expect((await history.findIncident(["failing"], pager))?.record.acknowledged?.by).toBe(
      "slack:U1 (alice)",
    );
    // Told once in the chat incident's thread, and the pager's page acknowledged under its key.
    expect(told.published.map((m) => m.topics)).toEqual([["incidents"], ["critical"]]);
    expect(docOf(told.published[0])).toMatchObject({
      action: "acknowledge",
      incident: { key: chat, thread: chat },
      pages: [],
    });
    expect(docOf(told.published[1])).toMatchObject({ action: "acknowledge", pages: [pager] });
    expect(docOf(told.published[0]).text).toBe(`Incident ${chat} acknowledged by slack:U1 (alice): on it.`);

    // Again (a second click, a replay): nothing changes, nothing is told.
    expect(await actOnIncident(acting, { kind: "acknowledge", key: pager, by: "pagerduty:P1" })).toEqual({
      outcome: "already",
      keys: [],
    });
    expect(told.published).toHaveLength(2);

    // A day on: the reminders of both members are held back, counted; nothing is published.
    runs.published.length = 0;
    const quiet = await runAt(24);
    expect(quiet.notified.acknowledged).toBe(2);
    expect(runs.published).toEqual([]);
    // A change is told even so.
    kit.sim.fleet.fail(a, "provision");
    const changed = await runAt(25);
    expect(changed.transitions.map((t) => t.kind)).toEqual(["changed"]);
    expect(runs.published.length).toBeGreaterThan(0);

    // Taken back: the reminders come again when due.
    expect((await actOnIncident(acting, { kind: "unacknowledge", key: chat, by: "alice" })).outcome).toBe(
      "applied",
    );
    expect((await history.findIncident(["failing"], chat))?.record.acknowledged).toBeUndefined();
    runs.published.length = 0;
    const reminded = await runAt(49);
    expect(reminded.transitions.filter((t) => t.kind === "reminder")).toHaveLength(2);
    expect(reminded.notified.acknowledged).toBeUndefined();
  });

  it("tells what PagerDuty did to a page in the thread of the chat incident under it, by that incident's key", async () => {
    failNew(2);
    await runAt(0);
    const { chat, pager } = await keysOf();
    const acked = await actOnIncident(acting, { kind: "acknowledge", key: pager, by: "pagerduty:P1 (Bob)" });
    expect(acked.keys.sort()).toEqual([chat, pager].sort());
    expect(told.published.map((m) => m.topics)).toEqual([["incidents"], ["critical"]]);
    // The chat incident's thread: where its messages went, never one of the page's own (it has none).
    expect(docOf(told.published[0])).toMatchObject({ incident: { key: chat, thread: chat } });
    expect(docOf(told.published[0]).text).toBe(`Incident ${chat} acknowledged by pagerduty:P1 (Bob).`);
    expect(docOf(told.published[1])).toMatchObject({ pages: [pager] });

    told.published.length = 0;
    await actOnIncident(acting, { kind: "resolvedInPager", key: pager, by: "pagerduty:P1 (Bob)" });
    expect(told.published.map((m) => [m.topics, docOf(m).incident])).toEqual([
      [["incidents"], { key: chat, thread: chat }],
    ]);
  });

  it("applies two acknowledgements at once exactly once", async () => {
    failNew(1);
    await runAt(0);
    const { chat } = await keysOf();
    const both = await Promise.all([
      actOnIncident(acting, { kind: "acknowledge", key: chat, by: "alice" }),
      actOnIncident(acting, { kind: "acknowledge", key: chat, by: "bob" }),
    ]);
    expect(both.map((r) => r.outcome).sort()).toEqual(["already", "applied"]);
    const shown = await history.incidentTimeline(["failing"], chat);
    expect(shown?.events.filter((e) => e.what.includes("acknowledged"))).toHaveLength(1);
  });

  it("silences an incident by its key, refuses a key no open incident has, and records a page PagerDuty resolved", async () => {
    const [a] = failNew(1) as [string];
    await runAt(0);
    const { chat, pager } = await keysOf();
    const silenced = await actOnIncident(acting, {
      kind: "silence",
      key: chat,
      by: "alice",
      forMs: 4 * HOUR,
    });
    expect(silenced).toMatchObject({ outcome: "applied", keys: [chat] });
    const [silence] = await silences.active(new Date(T0 + 3 * HOUR));
    expect(silence).toMatchObject({
      id: silenced.silenceId,
      audit: "failing",
      match: [{ name: "incident_default", op: "=", value: chat }],
      endsAt: new Date(T0 + 6 * HOUR).toISOString(),
    });
    expect(docOf(told.published[0])).toMatchObject({
      action: "silence",
      silence: { id: silenced.silenceId },
    });

    expect(
      await actOnIncident(acting, { kind: "acknowledge", key: "inc-nosuchincidentkey0000", by: "x" }),
    ).toEqual({ outcome: "unknown", keys: [] });

    const resolved = await actOnIncident(acting, {
      kind: "resolvedInPager",
      key: pager,
      by: "pagerduty:P1 (Bob)",
    });
    expect(resolved).toMatchObject({ outcome: "applied", keys: [pager] });
    expect((await history.incidentTimeline(["failing"], pager))?.events.at(-1)?.what).toEqual([
      "pagerResolved",
    ]);
    // An incident that ended is no open incident.
    kit.sim.fleet.recover(a);
    await runAt(1);
    expect((await actOnIncident(acting, { kind: "acknowledge", key: chat, by: "x" })).outcome).toBe(
      "unknown",
    );
  });
  it("acknowledges everything a roll-up rolled up by the roll-up's key", async () => {
    run = {
      ...run,
      settings: {
        ...run.settings,
        routes: [
          {
            name: "default",
            receiver: "incidents",
            matchers: [],
            groupBy: ["instance"],
            continue: false,
            maxNew: 1,
          },
        ],
      },
    };
    failNew(3);
    await runAt(0);
    const records = await history.listIncidents(["failing"], {});
    const rolled = records.filter((r) => r.thread);
    expect(records).toHaveLength(3);
    expect(rolled).toHaveLength(2);
    const rollUp = rolled[0]?.thread as string;
    const acked = await actOnIncident(acting, { kind: "acknowledge", key: rollUp, by: "alice" });
    expect(acked.outcome).toBe("applied");
    expect(acked.keys.sort()).toEqual(rolled.map((r) => r.key).sort());
    for (const r of rolled)
      expect((await history.findIncident(["failing"], r.key))?.record.acknowledged?.by).toBe("alice");
    const own = records.find((r) => !r.thread);
    expect(
      (await history.findIncident(["failing"], own?.key as string))?.record.acknowledged,
    ).toBeUndefined();
    expect(docOf(told.published[0])).toMatchObject({ incident: { key: rollUp, thread: rollUp } });
  });
  it("pages again at the next change of an incident PagerDuty resolved while it still failed, once, and not before", async () => {
    const [a] = failNew(2) as [string, string];
    await runAt(0);
    const { pager } = await keysOf();
    await actOnIncident(acting, { kind: "resolvedInPager", key: pager, by: "pagerduty:P1 (Bob)" });
    expect((await history.findIncident(["failing"], pager))?.record.pagerResolvedAt).toBeDefined();
    const critical = () => runs.published.filter((m) => m.topics?.includes("critical"));
    runs.published.length = 0;
    await runAt(1);
    expect(critical()).toEqual([]);
    // A change: the pager hears a trigger under the same key (a new alert), once.
    kit.sim.fleet.fail(a, "provision");
    await runAt(2);
    expect(critical().map((m) => JSON.parse(JSON.parse(m.message).default).incident)).toMatchObject([
      { key: pager, status: "firing" },
    ]);
    expect((await history.findIncident(["failing"], pager))?.record.pagerResolvedAt).toBeUndefined();
    runs.published.length = 0;
    kit.sim.fleet.fail(a, "upgrade");
    await runAt(3);
    expect(critical()).toEqual([]);
  });
});
