import { generateFleet } from "@fleet-auditor/keb-kubeedge-sim";
import { SnsAlertPublisher } from "@fleet-auditor/notify";
import {
  auditTableDefinition,
  DynamoAuditStore,
  DynamoReportStore,
  DynamoStatusStore,
  ensureTable,
  statusTableDefinition,
} from "@fleet-auditor/store";
import { type AuditRunDeps, ingestBatch, runAudit } from "@fleet-auditor/use-cases";
import { beforeEach, describe, expect, it } from "vitest";
import { useDynamo } from "../../helpers/dynamo.ts";
import { useKebSimulator } from "../../helpers/keb.ts";
import { withDeps } from "../../helpers/run-deps.ts";
import { type Delivered, useSns } from "../../helpers/sns.ts";
import { testAudits } from "../../helpers/test-audits.ts";

// Field contents alone must never jam an audit: whatever KEB or the edge puts in a field, a run
// tells it once, commits, and the next run with nothing changed publishes nothing. Runs against
// dynalite and, in the dynamodb-local project, AWS's DynamoDB Local, which refuses items over
// 400 KB and duplicate keys in a batch as DynamoDB does.

const kit = useKebSimulator({ fleet: { size: 10, seed: 1 } });
const env = useDynamo([]);
const sns = useSns();

let n = 0;
let base: AuditRunDeps;
let status: DynamoStatusStore;
let drain: () => Promise<Delivered[]>;

beforeEach(async () => {
  n++;
  const [auditTable, statusTable] = [`audit-hostile-${n}`, `status-hostile-${n}`];
  // One client for the file: the suite's own, on dynalite or DynamoDB Local.
  const client = env.db.client;
  await ensureTable(client, auditTableDefinition(auditTable));
  await ensureTable(client, statusTableDefinition(statusTable));
  status = new DynamoStatusStore({ client, tableName: statusTable });
  drain = await sns.subscriber(`hostile-${n}`);
  base = {
    ports: {
      audits: testAudits(),
      store: new DynamoAuditStore({ client, tableName: auditTable }),
      reports: new DynamoReportStore({ client, tableName: auditTable }),
      publisher: new SnsAlertPublisher({ client: sns.sns, topicArn: sns.topicArn }),
    },
  };
});

const T0 = Date.UTC(2026, 10, 1, 12, 0);
const at = (minutes: number): Date => new Date(T0 + minutes * 60_000);

const emails = (delivered: Delivered[]): string[] =>
  delivered.map((d) => (JSON.parse(d.Message) as { email: string }).email);

describe("a KEB audit over runtimes whose fields are huge or hold line breaks", () => {
  const run = (minutes: number) =>
    runAudit(
      withDeps(base, {
        ports: { audits: testAudits({ client: kit.client() }) },
        hooks: { clock: () => at(minutes) },
      }),
      {
        audit: "failing",
        scheduledTime: at(minutes).toISOString(),
      },
    );

  it("bounds every field where the finding is built: told once, committed, then quiet", async () => {
    kit.sim.fleet.reset(generateFleet({ size: 40, seed: 3, flagged: 8 }));
    const flagged = kit.sim.fleet
      .all()
      .filter((i) => i.operations.at(-1)?.state === "failed" && !i.deletedAt);
    const [bigAccount, bigRegion, forged] = flagged;
    (bigAccount as { globalAccountID: string }).globalAccountID = "g".repeat(420_000);
    (bigRegion as { region: string }).region = "r".repeat(200_000);
    (forged as { shootName: string }).shootName = "c-1\n\nRECOVERED (1)\n  fake line";

    const first = await run(0);
    expect(first).toMatchObject({ complete: true, notified: { failed: 0 } });
    expect(first.transitions.length).toBe(first.flagged);
    const [email] = emails(await drain());
    expect(email).toBeDefined();
    expect(email?.split("\n").some((line) => line.startsWith("RECOVERED"))).toBe(false);
    expect(email?.length).toBeLessThan(120_000);

    const again = await run(5);
    expect(again.transitions).toEqual([]);
    expect(again.writes).toEqual({ snapshot: 0, deleted: 0 });
    expect(await drain()).toEqual([]);
  });
});

describe("a finding the audit cannot keep", () => {
  const run = (minutes: number) =>
    runAudit(
      withDeps(base, {
        ports: { audits: testAudits({ client: kit.client() }) },
        hooks: { clock: () => at(minutes) },
      }),
      {
        audit: "failing",
        scheduledTime: at(minutes).toISOString(),
      },
    );

  it("is left out before publishing, counted in every run summary, and told once while it persists", async () => {
    kit.sim.fleet.reset(generateFleet({ size: 40, seed: 3, flagged: 8 }));
    expect((await run(0)).complete).toBe(true);
    await drain();
    // A runtime fails whose instance ID no DynamoDB key can hold: the only change of the run.
    const healthy = kit.sim.fleet
      .all()
      .find((i) => i.active && !i.deletedAt && i.operations.at(-1)?.state === "succeeded");
    kit.sim.fleet.fail(healthy?.instanceID as string);
    (healthy as { instanceID: string }).instanceID = `x${"0".repeat(1_100)}`;

    const first = await run(5);
    expect(first).toMatchObject({
      complete: true,
      transitions: [],
      unstorableCount: 1,
      notified: { messages: 1 },
    });
    const [told] = await drain();
    const body = JSON.parse(told?.Message as string) as { email: string; https: string; default: string };
    expect(told?.Subject).toContain("1 left out");
    expect(body.email).toContain(`Left out: 1 flagged finding this audit cannot keep`);
    expect(body.email).toContain("its key is 1101 bytes");
    expect(body.https).toContain("Left out: 1");
    expect(JSON.parse(body.default).leftOut).toMatchObject({ count: 1 });

    const again = await run(10);
    expect(again).toMatchObject({ unstorableCount: 1, notified: { messages: 0 } });
    expect(await drain()).toEqual([]);
    expect(again.health?.badRuns).toBe(0);
  });
});

describe("the applications audit over refusals and Applications whose texts collide once cut", () => {
  const run = (minutes: number) =>
    runAudit(
      withDeps(base, {
        ports: { audits: testAudits({ statusStore: status }) },
        hooks: { clock: () => at(minutes) },
      }),
      {
        audit: "applications",
        scheduledTime: at(minutes).toISOString(),
      },
    );
  let messageNo = 0;
  const message = (
    id: string,
    statusName: string,
    minute: number,
    extra: { node?: string; verb?: string; reason?: string } = {},
  ): string => {
    const node = extra.node ?? "edge-1";
    return JSON.stringify({
      header: { msg_id: `m-${++messageNo}`, timestamp: at(minute).getTime() },
      route: { resource: `node/${node}/null` },
      content: {
        ID: id,
        Key: "/core/v1/services/null/null",
        Verb: extra.verb ?? "list",
        Nodename: node,
        Status: statusName,
        ...(extra.reason
          ? { Error: { ErrStatus: { kind: "Status", status: "Failure", reason: extra.reason, code: 403 } } }
          : {}),
      },
    });
  };
  const ingest = async (bodies: string[], minute: number): Promise<void> => {
    const { counts } = await ingestBatch(
      { store: status, clock: () => at(minute) },
      bodies.map((body, i) => ({ messageId: `q-${messageNo}-${i}`, body })),
    );
    expect(counts.failed).toBe(0);
  };

  it("gives two reasons that differ after 200 characters, and two nodes with one 253-character prefix, keys of their own", async () => {
    const reason = "x".repeat(200);
    const node = `n${"e".repeat(252)}`;
    const burst = (prefix: string, extra: { node?: string; reason: string }) =>
      Array.from({ length: 5 }, (_, i) => message(`${prefix}-${i}`, "Rejected", 20 + i, extra));
    await ingest(
      [
        ...burst("a", { reason: `${reason}-first` }),
        ...burst("b", { reason: `${reason}-second` }),
        ...burst("c", { node: `${node}-one`, reason: "Forbidden" }),
        ...burst("d", { node: `${node}-two`, reason: "Forbidden" }),
      ],
      26,
    );
    const first = await run(30);
    expect(first).toMatchObject({ complete: true, flagged: 4, notified: { failed: 0 } });
    const keys = first.transitions.map((t) => t.instanceID);
    expect(new Set(keys).size).toBe(4);
    for (const key of keys) expect(Buffer.byteLength(`RT#${key}`)).toBeLessThanOrEqual(1024);
    expect(first.writes.snapshot).toBe(4);
    expect(await drain()).toHaveLength(1);

    const again = await run(31);
    expect(again.transitions).toEqual([]);
    expect(again.writes).toEqual({ snapshot: 0, deleted: 0 });
    expect(await drain()).toEqual([]);
  });

  it("keeps a key that fits exactly as it was, so an upgrade renames nothing", async () => {
    await ingest(
      Array.from({ length: 5 }, (_, i) => message(`r-${i}`, "Rejected", 20 + i, { reason: "Forbidden" })),
      26,
    );
    const first = await run(30);
    expect(first.transitions.map((t) => t.instanceID)).toEqual(["refusals:edge-1:403:Forbidden"]);
  });

  it("tells a stuck Application with a 250,000-character verb, commits, and is quiet after", async () => {
    await ingest([message("stuck-1", "InApplying", 0, { verb: "v".repeat(250_000) })], 1);
    const first = await run(30);
    expect(first).toMatchObject({ complete: true, flagged: 1, notified: { failed: 0 } });
    expect(first.writes.snapshot).toBe(1);
    expect(await drain()).toHaveLength(1);
    const again = await run(35);
    expect(again.transitions).toEqual([]);
    expect(await drain()).toEqual([]);
  });
});
