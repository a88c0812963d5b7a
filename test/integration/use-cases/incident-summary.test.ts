import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { SnsAlertPublisher } from "@fleet-auditor/notify";
import { SUMMARY_V1, SummaryV1Schema } from "@fleet-auditor/render";
import {
  auditTableDefinition,
  DynamoAuditStore,
  DynamoIncidentHistory,
  DynamoReportStore,
  documentClient,
  ensureTable,
} from "@fleet-auditor/store";
import {
  type AuditRunDeps,
  incidentSummary,
  parseIncidentSummary,
  RunInputError,
  runAudit,
} from "@fleet-auditor/use-cases";
import { beforeAll, describe, expect, it } from "vitest";
import { useDynamo } from "../../helpers/dynamo.ts";
import { useKebSimulator } from "../../helpers/keb.ts";
import { useSns } from "../../helpers/sns.ts";
import { testAudits } from "../../helpers/test-audits.ts";

// A window's summary of the incidents that real runs wrote, through DynamoDB, read back through
// the history port and published to the alerts topic (fauxqs behind SNS's rules). Each runtime is
// an incident of its own (grouped by instance), so that every figure is counted by hand below.

const kit = useKebSimulator({ fleet: { size: 10, seed: 3, flagged: 0 } });
const env = useDynamo([]);
const sns = useSns();

const T0 = Date.UTC(2026, 10, 23, 8);
const HOUR = 3_600_000;
const TABLE = "summary-history";
let audits: ReturnType<typeof testAudits>;
let deps: AuditRunDeps;
let history: DynamoIncidentHistory;
let drain: () => Promise<Array<{ Subject: string; Message: string }>>;

beforeAll(async () => {
  audits = testAudits({ client: kit.client() });
  const raw = new DynamoDBClient({
    endpoint: env.db.endpoint,
    region: "local",
    credentials: { accessKeyId: "l", secretAccessKey: "l" },
  });
  await ensureTable(raw, auditTableDefinition(TABLE));
  const ddb = documentClient(raw);
  history = new DynamoIncidentHistory({ client: ddb, tableName: TABLE });
  drain = await sns.subscriber("summary-alerts");
  deps = {
    ports: {
      audits,
      store: new DynamoAuditStore({ client: ddb, tableName: TABLE }),
      reports: new DynamoReportStore({ client: ddb, tableName: TABLE }),
      publisher: new SnsAlertPublisher({ client: sns.sns, topicArn: sns.topicArn }),
    },
    settings: {
      landscape: "prod-eu",
      routes: [
        {
          name: "default",
          receiver: "incidents",
          matchers: [],
          groupBy: ["instance"],
          continue: false,
          maxNew: 10,
        },
      ],
    },
  };
  // Hour 0: a and b fail; hour 1: a recovers (1 h); hour 3: b recovers (3 h), c fails and stays.
  const [a, b, c] = kit.sim.fleet.create(3).map((r) => r.instanceID) as [string, string, string];
  const runAt = (h: number) =>
    runAudit(
      { ...deps, hooks: { clock: () => new Date(T0 + h * HOUR) } },
      { audit: "failing", now: new Date(T0 + h * HOUR).toISOString() },
    );
  kit.sim.fleet.fail(a, "provision");
  kit.sim.fleet.fail(b, "provision");
  await runAt(0);
  kit.sim.fleet.recover(a);
  await runAt(1);
  kit.sim.fleet.recover(b);
  kit.sim.fleet.fail(c, "provision");
  await runAt(3);
  await drain();
});

const summaryDeps = (at: number) => ({
  history,
  audits,
  publisher: deps.ports.publisher,
  landscape: "prod-eu",
  commandStore: { region: "eu-central-1", table: TABLE },
  clock: () => new Date(T0 + at * HOUR),
});

describe("an incident summary of what the runs wrote", () => {
  it("counts the window's incidents as a hand count does, and publishes nothing unless asked", async () => {
    const summary = await incidentSummary(summaryDeps(5), parseIncidentSummary({ report: { since: "7d" } }));
    expect(summary).toMatchObject({
      window: "7d",
      audits: audits.names,
      since: new Date(T0 + 5 * HOUR - 7 * 24 * HOUR).toISOString(),
      until: new Date(T0 + 5 * HOUR).toISOString(),
      opened: 3,
      ended: 2,
      open: 1,
      timeToResolve: { count: 2, p50Ms: HOUR, p90Ms: 3 * HOUR },
      byAudit: [{ value: "failing", opened: 3, ended: 2 }],
    });
    expect(summary.published).toBeUndefined();
    expect(await drain()).toEqual([]);
    // A window that starts after the first end leaves that incident out; another audit has none.
    const later = await incidentSummary(summaryDeps(5), parseIncidentSummary({ report: { since: "3h" } }));
    expect([later.opened, later.ended, later.open]).toEqual([1, 1, 1]);
    const other = await incidentSummary(
      summaryDeps(5),
      parseIncidentSummary({ report: { since: "7d", audit: "expired" } }),
    );
    expect([other.audits, other.opened, other.open]).toEqual([["expired"], 0, 0]);
  });

  it("publishes the window ending at the schedule's time to the alerts topic, once, with the stage's commands", async () => {
    const until = new Date(T0 + 4 * HOUR).toISOString();
    const summary = await incidentSummary(
      summaryDeps(9),
      parseIncidentSummary({ report: { since: "7d", publish: true, until } }),
    );
    expect(summary).toMatchObject({
      until,
      opened: 3,
      published: { messageId: expect.any(String), subject: expect.stringMatching(/\[fleet-auditor\]$/) },
    });
    const [delivered, ...more] = await drain();
    expect(more).toEqual([]);
    expect(delivered?.Subject).toBe(
      "3 incidents opened, 1 still open; p50 time to resolve 1h | prod-eu | summary of 7d [fleet-auditor]",
    );
    const bodies = JSON.parse(delivered?.Message ?? "{}") as { default: string; email: string };
    expect(SummaryV1Schema.parse(JSON.parse(bodies.default))).toMatchObject({
      schema: SUMMARY_V1,
      until,
      opened: 3,
      ended: 2,
      open: 1,
    });
    expect(bodies.email).toContain(
      `More: AWS_REGION=eu-central-1 AUDIT_TABLE=${TABLE} fleet-auditor incidents stats --since 7d`,
    );
  });

  it("refuses a window it cannot count, naming the field, and reads nothing", async () => {
    const refused = async (report: Record<string, unknown>, retentionDays?: number) => {
      try {
        await incidentSummary(
          { ...summaryDeps(5), ...(retentionDays ? { retentionDays } : {}) },
          parseIncidentSummary({ report }),
        );
      } catch (err) {
        expect(err).toBeInstanceOf(RunInputError);
        return (err as RunInputError).problems;
      }
      throw new Error("not refused");
    };
    expect(await refused({ since: "7 days" })).toEqual([
      'report.since: expected a duration such as "7d", "24h" or "90m"',
    ]);
    expect(await refused({ since: "-7d" })).toEqual([
      'report.since: expected a duration such as "7d", "24h" or "90m"',
    ]);
    expect(await refused({ since: "0d" })).toEqual([
      'report.since: expected a duration such as "7d", "24h" or "90m"',
    ]);
    expect(await refused({ since: "91d" })).toEqual([
      "report.since: 91d is longer than the 90 days incident records are kept",
    ]);
    expect(await refused({ since: "11d" }, 10)).toEqual([
      "report.since: 11d is longer than the 10 days incident records are kept",
    ]);
    expect(await refused({ since: "7d", audit: "nope" })).toEqual([
      "report.audit: unknown audit; expected one of failing, expired, applications",
    ]);
    expect(await refused({ since: "7d", publsh: true })).toEqual(['report: Unrecognized key: "publsh"']);
    expect(await drain()).toEqual([]);
  });
});
