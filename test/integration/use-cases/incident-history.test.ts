import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { PublishBatchCommand, PublishCommand } from "@aws-sdk/client-sns";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { SnsAlertPublisher } from "@fleet-auditor/notify";
import {
  auditTableDefinition,
  DynamoAuditStore,
  DynamoIncidentHistory,
  DynamoReportStore,
  documentClient,
  ensureTable,
} from "@fleet-auditor/store";
import { type AuditRunDeps, runAudit } from "@fleet-auditor/use-cases";
import { mockClient } from "aws-sdk-client-mock";
import { beforeEach, describe, expect, it } from "vitest";
import { useDynamo } from "../../helpers/dynamo.ts";
import { useKebSimulator } from "../../helpers/keb.ts";
import { useSns } from "../../helpers/sns.ts";
import { testAudits } from "../../helpers/test-audits.ts";

// Incident history as runs write it: with the snapshot commit, through DynamoDB, read back as the
// CLI reads it. The chat route groups by audit here: one incident holds every failing runtime,
// so its members are the simulator's to count.

const kit = useKebSimulator({ fleet: { size: 10, seed: 1, flagged: 0 } });
const env = useDynamo([]);
const sns = useSns();

const T0 = Date.UTC(2026, 10, 1, 0);
const HOUR = 3_600_000;
const at = (h: number): string => new Date(T0 + h * HOUR).toISOString();

let tableNo = 0;
let deps: AuditRunDeps;
let history: DynamoIncidentHistory;
let ddb: ReturnType<typeof documentClient>;
let table: string;

beforeEach(async () => {
  kit.sim.faults.clear();
  kit.sim.fleet.reset([]);
  table = `history-${++tableNo}`;
  const raw = new DynamoDBClient({
    endpoint: env.db.endpoint,
    region: "local",
    credentials: { accessKeyId: "l", secretAccessKey: "l" },
  });
  await ensureTable(raw, auditTableDefinition(table));
  ddb = documentClient(raw);
  history = new DynamoIncidentHistory({ client: ddb, tableName: table });
  deps = {
    ports: {
      audits: testAudits({ client: kit.client() }),
      store: new DynamoAuditStore({ client: ddb, tableName: table }),
      reports: new DynamoReportStore({ client: ddb, tableName: table }),
      publisher: new SnsAlertPublisher({ client: sns.sns, topicArn: sns.topicArn }),
    },
    settings: {
      landscape: "prod-eu",
      incidentRetentionDays: 10,
      routes: [
        {
          name: "default",
          receiver: "incidents",
          matchers: [],
          groupBy: ["audit"],
          continue: false,
          maxNew: 10,
        },
      ],
    },
  };
});

/** A run of the failing audit at hour `h`, its clock reading that hour. */
const runAt = (h: number, change: Partial<AuditRunDeps> = {}) =>
  runAudit(
    { ...deps, ...change, hooks: { clock: () => new Date(T0 + h * HOUR) } },
    { audit: "failing", now: at(h) },
  );

const failNew = (n: number): string[] =>
  kit.sim.fleet.create(n).map((c) => {
    kit.sim.fleet.fail(c.instanceID, "provision");
    return c.instanceID;
  });

describe("incident history, written by runs and read back", () => {
  it("keeps each incident's record and timeline from opening to end, listed by window, with a TTL", async () => {
    const first = failNew(2);
    await runAt(0);
    const [opened] = await history.listIncidents(["failing"], {});
    expect(opened).toMatchObject({
      audit: "failing",
      route: "default",
      members: 2,
      firing: 2,
      openedAt: at(0),
    });
    expect(opened?.values).toEqual({ audit: "failing" });

    const more = failNew(1);
    await runAt(1);
    for (const id of first) kit.sim.fleet.recover(id);
    await runAt(2);
    for (const id of more) kit.sim.fleet.recover(id);
    await runAt(3);

    const [ended] = await history.listIncidents(["failing"], {});
    expect(ended).toMatchObject({
      members: 3,
      peak: 3,
      firing: 0,
      endedAt: at(3),
      durationMs: 3 * HOUR,
      events: 4,
    });
    const shown = await history.incidentTimeline(["other", "failing"], ended?.key as string);
    expect(shown?.events.map((e) => [e.at, e.what, e.firing])).toEqual([
      [at(0), ["opened"], 2],
      [at(1), ["joined"], 3],
      [at(2), ["left"], 1],
      [at(3), ["ended", "left"], 0],
    ]);

    // A window that begins after it ended leaves it out; one before keeps it; open: none.
    expect(await history.listIncidents(["failing"], { since: new Date(T0 + 4 * HOUR) })).toEqual([]);
    expect(await history.listIncidents(["failing"], { since: new Date(T0 + 2 * HOUR) })).toHaveLength(1);
    expect(await history.listIncidents(["failing"], { open: true })).toEqual([]);
    expect(await history.listIncidents(["failing"], { audit: "expired" })).toEqual([]);

    // Kept for the stage's retention after the last run that wrote it, as DynamoDB's TTL reads it.
    const item = await ddb.send(
      new GetCommand({ TableName: table, Key: { pk: "INCIDENTS#failing", sk: ended?.key } }),
    );
    expect(item.Item?.ttl).toBe((T0 + 3 * HOUR) / 1000 + 10 * 86_400);
  });

  it("records nothing of a run whose publish was refused; the run that sends it again records its opening once", async () => {
    failNew(1);
    const refusing = mockClient(sns.sns);
    refusing.on(PublishCommand).rejects(new Error("throttled"));
    refusing.on(PublishBatchCommand).rejects(new Error("throttled"));
    const refused = await runAt(0);
    refusing.restore();
    expect(refused.notified.failed).toBeGreaterThan(0);
    expect(await history.listIncidents(["failing"], {})).toEqual([]);

    await runAt(1);
    const [record] = await history.listIncidents(["failing"], {});
    expect(record).toMatchObject({ members: 1, events: 1, openedAt: at(1) });
    const shown = await history.incidentTimeline(["failing"], record?.key as string);
    expect(shown?.events.map((e) => e.what)).toEqual([["opened"]]);
  });

  it("writes no history in a steady run, and a dry run writes none", async () => {
    failNew(1);
    await runAt(0, { ...deps });
    await runAudit(
      { ...deps, hooks: { clock: () => new Date(T0 + HOUR) } },
      { audit: "failing", now: at(1), dryRun: true },
    );
    await runAt(2);
    const [record] = await history.listIncidents(["failing"], {});
    expect(record?.events).toBe(1);
  });
});
