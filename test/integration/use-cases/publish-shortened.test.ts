import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { SNSClient } from "@aws-sdk/client-sns";
import type { RunReportStore } from "@fleet-auditor/audit";
import { generateFleet } from "@fleet-auditor/keb-kubeedge-sim";
import { SnsAlertPublisher } from "@fleet-auditor/notify";
import {
  auditTableDefinition,
  DynamoAuditStore,
  DynamoReportStore,
  documentClient,
  ensureTable,
} from "@fleet-auditor/store";
import { type AuditRunDeps, runAudit } from "@fleet-auditor/use-cases";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useDynamo } from "../../helpers/dynamo.ts";
import { useFaultProxy } from "../../helpers/fault-proxy.ts";
import { useKebSimulator } from "../../helpers/keb.ts";
import { withDeps } from "../../helpers/run-deps.ts";
import { type Delivered, useSns } from "../../helpers/sns.ts";
import { testAudits } from "../../helpers/test-audits.ts";

// SNS refuses a digest as too long although it was fitted (it counts something the renderer did
// not foresee): the run publishes the digest's short form instead of failing every time, and
// counts as told only what that form tells: every transition when the report holding them was
// stored, none when it was not (they are sent again next run).

const kit = useKebSimulator({ fleet: { size: 10, seed: 1 } });
const env = useDynamo([]);
const sns = useSns();
const proxy = useFaultProxy(() => `http://127.0.0.1:${sns.server.port}`);
let client: SNSClient;
let tableNo = 0;
let deps: AuditRunDeps;
let drain: () => Promise<Delivered[]>;
const hour = (h: number) => new Date(Date.UTC(2026, 10, 1, h)).toISOString();
const tooLong = {
  kind: "error",
  status: 400,
  code: "InvalidParameter",
  message: "Invalid parameter: Message too long",
} as const;

beforeAll(() => {
  client = new SNSClient({
    endpoint: proxy.proxy.url,
    region: "us-east-1",
    credentials: { accessKeyId: "test", secretAccessKey: "test" },
  });
});
afterAll(() => client.destroy());

beforeEach(async () => {
  proxy.proxy.clear();
  kit.sim.faults.clear();
  kit.sim.fleet.reset(generateFleet({ size: 400, seed: 23, flagged: 40 }));
  const table = `shortened-${++tableNo}`;
  const raw = new DynamoDBClient({
    endpoint: env.db.endpoint,
    region: "local",
    credentials: { accessKeyId: "l", secretAccessKey: "l" },
  });
  await ensureTable(raw, auditTableDefinition(table));
  const doc = documentClient(raw);
  drain = await sns.subscriber(`shortened-${tableNo}`);
  deps = {
    ports: {
      audits: testAudits({ client: kit.client() }),
      store: new DynamoAuditStore({ client: doc, tableName: table }),
      reports: new DynamoReportStore({ client: doc, tableName: table }),
      publisher: new SnsAlertPublisher({ client, topicArn: sns.topicArn }),
    },
    hooks: { clock: () => new Date(hour(0)) },
  };
});

describe("a digest SNS refuses as too long", () => {
  it("goes out in its short form, and with the report stored every transition is told once", async () => {
    proxy.proxy.add({ operation: "Publish", times: 1, action: tooLong });
    const first = await runAudit(deps, { audit: "failing", scheduledTime: hour(0) });
    expect(first.transitions.length).toBeGreaterThan(0);
    expect(first.notified).toMatchObject({
      messages: 1,
      transitions: first.transitions.length,
      failed: 0,
      shortened: 1,
    });
    const [short] = await drain();
    // The short form keeps the full form's title: what is wrong, then how many.
    expect(short?.Subject).toMatch(/^failed \(err_\w+\).*: [\d,]+ new runtimes/);
    expect((JSON.parse(short?.Message ?? "{}") as { email: string }).email).toContain(
      `names none of the ${first.transitions.length} transitions`,
    );
    expect(first.writes.snapshot).toBeGreaterThan(0);

    const next = await runAudit(deps, { audit: "failing", scheduledTime: hour(1) });
    expect(next.notified.messages).toBe(0);
    expect(next.writes).toEqual({ snapshot: 0, deleted: 0 });
    expect(await drain()).toEqual([]);
  });

  it("tells nothing in its short form when the report could not be stored: the next run sends it again", async () => {
    const broken: RunReportStore = {
      saveReport: () => Promise.reject(new Error("report table unavailable")),
      loadReport: () => Promise.resolve(undefined),
    };
    proxy.proxy.add({ operation: "Publish", times: 1, action: tooLong });
    const first = await runAudit(withDeps(deps, { ports: { reports: broken } }), {
      audit: "failing",
      scheduledTime: hour(0),
    });
    expect(first.notified).toMatchObject({ messages: 1, transitions: 0, failed: 0 });
    expect(first.writes.snapshot).toBe(0);
    const [short] = await drain();
    expect((JSON.parse(short?.Message ?? "{}") as { email: string }).email).toContain(
      "The run report could not be stored",
    );

    const again = await runAudit(deps, { audit: "failing", scheduledTime: hour(1) });
    expect(again.notified).toMatchObject({ messages: 1, transitions: first.transitions.length, failed: 0 });
    expect((await drain()).map((d) => d.Subject)).toHaveLength(1);
  });
});
