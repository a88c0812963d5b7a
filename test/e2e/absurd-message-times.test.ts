import { PutCommand } from "@aws-sdk/lib-dynamodb";
import type { StatusRow } from "@fleet-auditor/metaserver";
import { DynamoStatusStore, ensureTable, statusTableDefinition, watchKey } from "@fleet-auditor/store";
import { runAudit } from "@fleet-auditor/use-cases";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { cli } from "../helpers/cli.ts";
import { useDynamo } from "../helpers/dynamo.ts";
import { emulatorEnv, fakeContext, withEnv } from "../helpers/lambda.ts";
import { MemoryAuditStore, MemoryPublisher } from "../helpers/memory-ports.ts";
import { testAudits } from "../helpers/test-audits.ts";

// Rows already stored with a header time no clock writes (put straight into the table, as a
// message before the quarantine of far-future times left them): every reader of the status table
// reads them without throwing, and the time it shows still parses and sorts.

const dynamo = useDynamo([]);
const TABLE = "absurd-times";
const NOW = new Date();
const MINUTE = 60_000;
let restore: () => void = () => undefined;
afterEach(() => restore());

const ABSURD = [
  // The message: past what a JavaScript Date holds (8.64e15 ms).
  { id: "far-open", status: "InApplying", ts: 9_000_000_000_000_000 },
  { id: "far-refused", status: "Rejected", ts: 9_000_000_000_000_000 },
  { id: "far-done", status: "Approved", ts: 9_000_000_000_000_000 },
  // Past a safe integer: the SDK reads it back as a BigInt.
  { id: "huge-open", status: "InApplying", ts: 10n ** 20n },
  // Before the year 0.
  { id: "ancient-open", status: "InApplying", ts: -9_000_000_000_000_000 },
];

beforeAll(async () => {
  await ensureTable(dynamo.db.client, statusTableDefinition(TABLE));
  const rows = [...ABSURD, { id: "sane-open", status: "InApplying", ts: NOW.getTime() - 30 * MINUTE }];
  for (const r of rows) {
    const wk = watchKey(r.status, r.id);
    await dynamo.db.client.send(
      new PutCommand({
        TableName: TABLE,
        Item: {
          id: r.id,
          key: "/core/v1/configmaps/default/cfg",
          verb: "get",
          node: "edge-clock",
          status: r.status,
          ts: r.ts,
          rank: 2,
          msgId: `m-${r.id}`,
          kind: "request",
          firstSeenAt: NOW.toISOString(),
          updatedAt: NOW.toISOString(),
          sizes: { option: 0, reqBody: 0, respBody: 0 },
          ttl: Math.floor(NOW.getTime() / 1000) + 86_400,
          ...(wk ? { wk } : {}),
        },
      }),
    );
  }
});

const store = () => new DynamoStatusStore({ client: dynamo.db.client, tableName: TABLE });

/** Every message time a reader shows parses as a time, and one past the year 9999 shows as its last instant. */
function expectReadable(rows: ReadonlyArray<{ id: string; messageTime: string }>): void {
  expect(rows.length, "rows to read").toBeGreaterThan(0);
  for (const r of rows) expect(Number.isNaN(Date.parse(r.messageTime)), r.id).toBe(false);
  const far = rows.find((r) => r.id === "far-open" || r.id === "far-refused");
  if (far) expect(far.messageTime).toBe("9999-12-31T23:59:59.999Z");
}

describe("a status row stored with an absurd header time", () => {
  it("is read by every status query (by node, by watched status, by scan), newest first", async () => {
    // Queries start at the epoch unless told `since`: the row before it is the watched read's.
    const byNode = await store().query({ node: "edge-clock" }, NOW);
    expect(byNode.map((r) => r.id)[0]).toBe("huge-open");
    expect(byNode.map((r) => r.id).at(-1)).toBe("sane-open");
    expect(byNode).toHaveLength(5);
    expectReadable(byNode);
    const open = await store().query({ status: "InApplying" }, NOW);
    // Both past the year 9999: the same time shown, in either order.
    expect(
      open
        .map((r) => r.id)
        .slice(0, 2)
        .sort(),
    ).toEqual(["far-open", "huge-open"]);
    expect(open.map((r) => r.id)[2]).toBe("sane-open");
    expectReadable(open);
    const refused = await store().query({ status: "Rejected" }, NOW);
    expect(refused.map((r) => r.id)).toEqual(["far-refused"]);
    expectReadable(refused);
    const all = await store().query({}, NOW);
    expect(all).toHaveLength(5);
    expectReadable(all);
  });

  it("is read by the watched read of the applications audit, which then completes", async () => {
    const open = await store().watched({ set: "open", before: new Date(NOW.getTime() - 10 * MINUTE) }, NOW);
    expectReadable(open);
    expect(open.map((r) => r.id).sort()).toEqual(["ancient-open", "sane-open"]);
    // A refusal at a time no clock wrote is in no refusal window: the window's read leaves it out.
    expect(
      await store().watched({ set: "refused", since: new Date(NOW.getTime() - 15 * MINUTE) }, NOW),
    ).toEqual([]);
    const summary = await runAudit(
      {
        ports: {
          audits: testAudits({ statusStore: store() }),
          store: new MemoryAuditStore(),
          publisher: new MemoryPublisher(),
        },
        hooks: { clock: () => NOW },
      },
      { audit: "applications", scheduledTime: NOW.toISOString(), dryRun: true },
    );
    expect(summary).toMatchObject({ complete: true, incompleteReason: null });
  });

  it("is answered by the query function", async () => {
    restore = withEnv({ STATUS_TABLE: TABLE, ...emulatorEnv({ dynamodb: dynamo.db.endpoint }) });
    vi.resetModules();
    const query = (await import("../../functions/application-status.ts")).handler as (
      event: unknown,
      context: unknown,
    ) => Promise<StatusRow[]>;
    const rows = await query({ node: "edge-clock" }, fakeContext("status"));
    expect(rows).toHaveLength(5);
    expectReadable(rows);
    expectReadable(await query({ status: "Rejected" }, fakeContext("status")));
    expectReadable(await query({}, fakeContext("status")));
  });

  it("is printed by apps status in every output", async () => {
    restore = withEnv(emulatorEnv({ dynamodb: dynamo.db.endpoint }));
    const env = { STATUS_TABLE: TABLE };
    const json = await cli(["apps", "status", "--node", "edge-clock", "--output", "json"], { env });
    expect(json.stderr).toBe("");
    expect(json.code).toBe(0);
    const rows = JSON.parse(json.stdout) as StatusRow[];
    expect(rows).toHaveLength(5);
    expectReadable(rows);
    for (const args of [["--node", "edge-clock"], ["--status", "InApplying"], []]) {
      const table = await cli(["apps", "status", ...args, "--output", "table"], { env });
      expect(table.stderr).toBe("");
      expect(table.code).toBe(0);
      expect(table.stdout).toContain("9999-12-31 23:59:59");
    }
  });
});
