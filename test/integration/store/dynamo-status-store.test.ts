import { GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { decodeMessage, type StatusUpdate, toUpdate } from "@fleet-auditor/metaserver";
import { DynamoStatusStore, ensureTable, statusTableDefinition } from "@fleet-auditor/store";
import { beforeEach, describe, expect, it } from "vitest";
import { useDynamo } from "../../helpers/dynamo.ts";

const dynamo = useDynamo([]);

// Each test its own table: no test reads rows another wrote.
let tableNo = 0;
let table: string;
beforeEach(async () => {
  table = `status-${++tableNo}`;
  await ensureTable(dynamo.db.client, statusTableDefinition(table));
});
const store = () => new DynamoStatusStore({ client: dynamo.db.client, tableName: table });

function update(
  id: string,
  status: string,
  ts: number,
  msgId: string,
  node = "edge-1",
  extra: Record<string, unknown> = {},
): StatusUpdate {
  const m = decodeMessage(
    JSON.stringify({
      header: { msg_id: msgId, timestamp: ts },
      route: { resource: `node/${node}/null` },
      content: { ID: id, Key: "/core/v1/configmaps/default/cfg", Verb: "get", Status: status, ...extra },
    }),
  );
  return toUpdate(m, m.applications[0] as NonNullable<(typeof m.applications)[0]>);
}
// A fixed time: rows' TTLs and the queries' "since" never depend on when the suite runs.
const NOW = new Date(Date.UTC(2026, 10, 30, 12, 0));
const ms = (minutesAgo: number) => NOW.getTime() - minutesAgo * 60_000;

describe("DynamoStatusStore on a real DynamoDB API (dynalite, or DynamoDB Local in its project)", () => {
  it("writes a newer message, refuses an older one as stale and the row's own message repeated as duplicate", async () => {
    const s = store();
    expect(await s.apply(update("a1", "InApplying", ms(10), "m1"), NOW)).toBe("applied");
    expect(await s.apply(update("a1", "InApplying", ms(10), "m1"), NOW)).toBe("duplicate");
    expect(await s.apply(update("a1", "Approved", ms(9), "m2"), NOW)).toBe("applied");
    // m1 again: no longer the row's message, so older than it: stale (the item keeps no history).
    expect(await s.apply(update("a1", "InApplying", ms(10), "m1"), NOW)).toBe("stale");
    expect(await s.apply(update("a1", "Approved", ms(9), "m2"), NOW)).toBe("duplicate");
    expect(await s.apply(update("a1", "PreApplying", ms(11), "m0"), NOW)).toBe("stale");
    // Same time: the higher status rank wins, whichever arrives first.
    expect(await s.apply(update("a1", "InProcessing", ms(9), "m3"), NOW)).toBe("stale");
    const [row] = await s.query({ node: "edge-1" }, NOW);
    expect(row).toMatchObject({
      id: "a1",
      status: "Approved",
      msgId: "m2",
      namespace: "default",
      name: "cfg",
      resource: "configmaps",
      verb: "get",
    });
  });

  it("keeps firstSeenAt and records a rejection's error code, reason and message", async () => {
    const s = store();
    const first = new Date(NOW.getTime() - 3_600_000);
    await s.apply(update("a2", "InApplying", ms(8), "n1"), first);
    await s.apply(
      update("a2", "Rejected", ms(7), "n2", "edge-1", {
        Error: {
          ErrStatus: {
            metadata: {},
            status: "Failure",
            message: 'configmaps "cfg" not found',
            reason: "NotFound",
            code: 404,
          },
        },
      }),
      NOW,
    );
    const [row] = (await s.query({ status: "Rejected" }, NOW)).filter((r) => r.id === "a2");
    expect(row).toMatchObject({
      firstSeenAt: first.toISOString(),
      updatedAt: NOW.toISOString(),
      error: { code: 404, reason: "NotFound", message: 'configmaps "cfg" not found' },
    });
    // A later Approved for the same ID clears the error (success is decided on Status).
    await s.apply(
      update("a2", "Approved", ms(6), "n3", "edge-1", {
        Error: { ErrStatus: { code: 404, reason: "NotFound" } },
      }),
      NOW,
    );
    const [after] = (await s.query({ node: "edge-1" }, NOW)).filter((r) => r.id === "a2");
    expect(after?.error).toBeUndefined();
  });

  it.each([
    ["with byNodeId", true],
    ["without it (a scan filtered by node)", false],
  ])(
    "answers a node's applications by time and a status since a time, newest first, %s",
    async (_, nodeIndex) => {
      await ensureTable(dynamo.db.client, statusTableDefinition(`${table}-n`, { nodeIndex }));
      const s = new DynamoStatusStore({ client: dynamo.db.client, tableName: `${table}-n` });
      await s.apply(update("a1", "Approved", ms(240), "a1m"), NOW);
      await s.apply(update("b1", "Rejected", ms(120), "b1m", "edge-2"), NOW);
      await s.apply(update("b2", "Rejected", ms(30), "b2m", "edge-2"), NOW);
      await s.apply(update("b3", "InApplying", ms(20), "b3m", "edge-2"), NOW);
      await s.apply(update("b4", "Rejected", ms(10), "b4m", "edge-3"), NOW);
      expect((await s.query({ node: "edge-2" }, NOW)).map((r) => r.id)).toEqual(["b3", "b2", "b1"]);
      expect((await s.query({ node: "edge-2", status: "Rejected" }, NOW)).map((r) => r.id)).toEqual([
        "b2",
        "b1",
      ]);
      // byNodeId keeps IDs only: the rows are read whole, then held to the time and the limit; the
      // scan reads them whole and filters them as it reads.
      expect(
        (await s.query({ node: "edge-2", since: new Date(ms(25)) }, NOW)).map((r) => [r.id, r.msgId]),
      ).toEqual([["b3", "b3m"]]);
      expect((await s.query({ node: "edge-2", limit: 2 }, NOW)).map((r) => r.id)).toEqual(["b3", "b2"]);
      expect((await s.query({ status: "Rejected", since: new Date(ms(60)) }, NOW)).map((r) => r.id)).toEqual([
        "b4",
        "b2",
      ]);
      expect(
        (await s.query({ status: "InApplying", since: new Date(ms(25)) }, NOW)).map((r) => r.id),
      ).toContain("b3");
      // A watched status comes from the byWatch shards, read back whole (the index projects less).
      const [rejected] = await s.query({ status: "Rejected", limit: 1 }, NOW);
      expect(rejected).toMatchObject({
        id: "b4",
        msgId: "b4m",
        kind: "request",
        updatedAt: NOW.toISOString(),
      });
      // Approved rows are in no index (they are most of the traffic): a scan stopped at the limit.
      expect((await s.query({ status: "Approved" }, NOW)).map((r) => r.id)).toEqual(["a1"]);
      const all = await s.query({}, NOW);
      expect(all.map((r) => r.id).sort()).toEqual(["a1", "b1", "b2", "b3", "b4"]);
      expect(all.map((r) => r.messageTime)).toEqual(
        all
          .map((r) => r.messageTime)
          .sort()
          .reverse(),
      );
      // Neither node nor status: a scan that stops at the limit, newest first of what it read.
      const three = await s.query({ limit: 3 }, NOW);
      expect(three).toHaveLength(3);
      expect(three.map((r) => r.messageTime)).toEqual(
        three
          .map((r) => r.messageTime)
          .sort()
          .reverse(),
      );
    },
  );

  it("scans for a node's rows where the table has no node index, in parallel segments, at most the limit", async () => {
    const s = store();
    const scans: Array<{ segment?: number; total?: number }> = [];
    const recorder = "recordNodeScans";
    dynamo.db.client.middlewareStack.add(
      (next) => async (args) => {
        const input = args.input as { TableName?: string; Segment?: number; TotalSegments?: number };
        if (input.TableName === table && (args.input as { IndexName?: string }).IndexName === undefined)
          if ("FilterExpression" in (args.input as object))
            scans.push({ segment: input.Segment, total: input.TotalSegments });
        return next(args);
      },
      { step: "initialize", name: recorder },
    );
    try {
      // 120 rows over 6 nodes, a node's 20 spread over the whole table.
      for (let i = 0; i < 120; i++)
        await s.apply(update(`app-${i}`, "Approved", ms(200 - i), `m${i}`, `edge-${i % 6}`), NOW);
      const all = await s.query({ node: "edge-4" }, NOW);
      expect(all.map((r) => r.id)).toEqual(Array.from({ length: 20 }, (_, k) => `app-${4 + 6 * (19 - k)}`));
      expect(new Set(scans.map((x) => x.segment))).toEqual(new Set([0, 1, 2, 3, 4, 5, 6, 7]));
      expect(scans.every((x) => x.total === 8)).toBe(true);
      // At most `limit` rows, each the node's and newest first of what was read.
      const five = await s.query({ node: "edge-4", limit: 5 }, NOW);
      expect(five).toHaveLength(5);
      expect(five.every((r) => r.node === "edge-4")).toBe(true);
      expect(five.map((r) => r.messageTime)).toEqual(
        five
          .map((r) => r.messageTime)
          .sort()
          .reverse(),
      );
      expect(await s.query({ node: "edge-none" }, NOW)).toEqual([]);
    } finally {
      dynamo.db.client.middlewareStack.remove(recorder);
    }
  });

  it("keeps each Application on one byWatch shard: open while in flight, refused when refused, out when done", async () => {
    const s = store();
    const watchOf = async (id: string) =>
      (await dynamo.db.client.send(new GetCommand({ TableName: table, Key: { id } }))).Item?.wk;
    await s.apply(update("w1", "PreApplying", ms(30), "w1a"), NOW);
    const open = await watchOf("w1");
    expect(open).toMatch(/^open#\d+$/);
    await s.apply(update("w1", "InProcessing", ms(29), "w1b"), NOW);
    expect(await watchOf("w1")).toBe(open);
    expect((await s.query({ status: "InProcessing" }, NOW)).map((r) => r.id)).toEqual(["w1"]);
    await s.apply(update("w1", "Failed", ms(28), "w1c"), NOW);
    expect(await watchOf("w1")).toBe(String(open).replace("open", "refused"));
    expect(await s.query({ status: "InProcessing" }, NOW)).toEqual([]);
    await s.apply(update("w2", "InApplying", ms(20), "w2a"), NOW);
    await s.apply(update("w2", "Approved", ms(19), "w2b"), NOW);
    expect(await watchOf("w2")).toBeUndefined();
    expect((await s.query({ status: "Failed" }, NOW)).map((r) => r.id)).toEqual(["w1"]);
  });

  it("writes an Application without a Status or a node: no empty index key, which DynamoDB refuses", async () => {
    // A stage's table with every index that keys on node.
    const withNodes = `${table}-n`;
    await ensureTable(dynamo.db.client, statusTableDefinition(withNodes, { nodeIndex: true }));
    const s = new DynamoStatusStore({ client: dynamo.db.client, tableName: withNodes });
    expect(await s.apply(update("no-status", "", ms(5), "ns1", ""), NOW)).toBe("applied");
    // The raw write shows the rule this store keeps: DynamoDB (and DynamoDB Local) refuse it.
    const refused = await dynamo.db.client
      .send(new PutCommand({ TableName: withNodes, Item: { id: "raw", node: "", ts: 1 } }))
      .then(
        () => "accepted",
        (err: Error) => err.name,
      );
    expect(refused).toBe(process.env.FLEET_AUDITOR_DYNAMO === "local" ? "ValidationException" : "accepted");
  });

  it("reads a watched set from every shard: open rows before a time, refused rows since one, projected", async () => {
    const s = store();
    for (let i = 0; i < 40; i++) await s.apply(update(`open-${i}`, "InApplying", ms(20 + i), `o${i}`), NOW);
    await s.apply(update("fresh", "InProcessing", ms(2), "fr"), NOW);
    await s.apply(update("done", "Approved", ms(50), "dn"), NOW);
    await s.apply(update("late", "Rejected", ms(3), "la", "edge-9", { Reason: "Forbidden" }), NOW);
    await s.apply(update("early", "Failed", ms(40), "ea", "edge-9"), NOW);
    const stuck = await s.watched({ set: "open", before: new Date(ms(10)) }, NOW);
    expect(stuck.map((r) => r.id).sort()).toEqual(Array.from({ length: 40 }, (_, i) => `open-${i}`).sort());
    // Only what the index projects: no sizes, message ids, kinds.
    expect(stuck[0]).not.toHaveProperty("msgId");
    expect(stuck[0]).toMatchObject({
      node: "edge-1",
      verb: "get",
      resource: "configmaps",
      status: "InApplying",
    });
    const refused = await s.watched({ set: "refused", since: new Date(ms(15)) }, NOW);
    expect(refused.map((r) => r.id)).toEqual(["late"]);
    expect(refused[0]).toMatchObject({ node: "edge-9", reason: "Forbidden" });
  });

  it("lets the next message replace a row whose header time no clock wrote, and leaves such a row out of the refusal window", async () => {
    const s = store();
    // Stored before far-future header times were quarantined: it would win every later merge.
    const poisoned = update("far", "Rejected", 9_000_000_000_000_000, "m-far", "edge-far");
    expect(await s.apply(poisoned, new Date(ms(60)))).toBe("applied");
    await s.apply(update("near", "Rejected", NOW.getTime() + 4 * 60_000, "m-near", "edge-far"), NOW);
    const refused = await s.watched({ set: "refused", since: new Date(ms(15)) }, NOW);
    expect(refused.map((r) => r.id)).toEqual(["near"]);
    expect(await s.apply(update("far", "InApplying", ms(5), "m-next", "edge-far"), NOW)).toBe("applied");
    expect(await s.apply(update("far", "PreApplying", ms(6), "m-older", "edge-far"), NOW)).toBe("stale");
    const [row] = (await s.query({ node: "edge-far" }, NOW)).filter((r) => r.id === "far");
    expect(row).toMatchObject({
      status: "InApplying",
      msgId: "m-next",
      messageTime: new Date(ms(5)).toISOString(),
    });
    // A message a little ahead of the clock is a clock's: the row keeps it.
    expect(await s.apply(update("near", "InApplying", ms(1), "m-behind", "edge-far"), NOW)).toBe("stale");
  });

  it("reindexes rows written before byWatch: unfinished and refused rows get their key, once", async () => {
    const s = store();
    await s.apply(update("old-open", "InApplying", ms(40), "o1"), NOW);
    await s.apply(update("old-refused", "Rejected", ms(40), "r1"), NOW);
    await s.apply(update("old-done", "Approved", ms(40), "d1"), NOW);
    // As a row looked before the index: no watch key.
    for (const id of ["old-open", "old-refused"]) {
      await dynamo.db.client.send(
        new UpdateCommand({ TableName: table, Key: { id }, UpdateExpression: "REMOVE wk" }),
      );
    }
    expect(await s.watched({ set: "open", before: new Date(ms(10)) }, NOW)).toEqual([]);
    expect(await s.reindex()).toEqual({ scanned: 3, updated: 2 });
    expect((await s.watched({ set: "open", before: new Date(ms(10)) }, NOW)).map((r) => r.id)).toEqual([
      "old-open",
    ]);
    expect((await s.watched({ set: "refused", since: new Date(ms(60)) }, NOW)).map((r) => r.id)).toEqual([
      "old-refused",
    ]);
    expect(await s.reindex()).toEqual({ scanned: 3, updated: 0 });
  });

  it("reindexes a row only while it holds the message it was read with, even when a newer one has the same time", async () => {
    const s = store();
    await s.apply(update("raced", "InApplying", ms(40), "m-request"), NOW);
    await dynamo.db.client.send(
      new UpdateCommand({ TableName: table, Key: { id: "raced" }, UpdateExpression: "REMOVE wk" }),
    );
    let raced = false;
    const race =
      (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) =>
      async (args: unknown) => {
        const input = (args as { input: { UpdateExpression?: string } }).input;
        if (
          !raced &&
          context.commandName === "UpdateItemCommand" &&
          input.UpdateExpression === "SET #wk = :wk"
        ) {
          raced = true;
          // Between the reindex's scan and its write, the answer lands: the same header time, a later status.
          expect(await s.apply(update("raced", "Completed", ms(40), "m-answer"), NOW)).toBe("applied");
        }
        return next(args);
      };
    const client = dynamo.db.client;
    client.middlewareStack.add(race as never, { step: "initialize", name: "raceReindex" });
    try {
      expect(await s.reindex()).toEqual({ scanned: 1, updated: 0 });
    } finally {
      client.middlewareStack.remove("raceReindex");
    }
    expect(raced).toBe(true);
    const item = (await client.send(new GetCommand({ TableName: table, Key: { id: "raced" } }))).Item;
    expect(item).toMatchObject({ status: "Completed", msgId: "m-answer" });
    expect(item?.wk).toBeUndefined();
    expect(await s.watched({ set: "open", before: new Date(ms(10)) }, NOW)).toEqual([]);
  });

  it("reindexes a row from before msg_ids were kept by its header time", async () => {
    const s = store();
    await dynamo.db.client.send(
      new PutCommand({
        TableName: table,
        Item: {
          id: "ancient",
          status: "InApplying",
          node: "edge-1",
          ts: ms(40),
          ttl: NOW.getTime() / 1000 + 3600,
        },
      }),
    );
    expect(await s.reindex()).toEqual({ scanned: 1, updated: 1 });
    expect((await s.watched({ set: "open", before: new Date(ms(10)) }, NOW)).map((r) => r.id)).toEqual([
      "ancient",
    ]);
  });

  it("fails a watched read when one shard cannot be read, rather than return part of the set", async () => {
    const s = store();
    await s.apply(update("open-1", "InApplying", ms(20), "o1"), NOW);
    let queries = 0;
    const failOne =
      (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) =>
      async (args: unknown) => {
        if (context.commandName === "QueryCommand" && ++queries === 7) {
          throw Object.assign(new Error("Throughput exceeds the current capacity"), {
            name: "ProvisionedThroughputExceededException",
          });
        }
        return next(args);
      };
    const client = dynamo.db.client;
    client.middlewareStack.add(failOne as never, { step: "initialize", name: "failOneShard" });
    try {
      await expect(s.watched({ set: "open", before: new Date(ms(10)) }, NOW)).rejects.toThrow(/capacity/);
    } finally {
      client.middlewareStack.remove("failOneShard");
    }
    expect(await s.watched({ set: "open", before: new Date(ms(10)) }, NOW)).toHaveLength(1);
  });

  it("keeps an Application's item one size however many messages it gets: no growing msg_id set", async () => {
    const s = store();
    const sizeOf = async () => {
      const { Item } = await dynamo.db.client.send(new GetCommand({ TableName: table, Key: { id: "busy" } }));
      return JSON.stringify(Item).length;
    };
    await s.apply(update("busy", "InApplying", ms(100), "m-000"), NOW);
    const first = await sizeOf();
    for (let i = 1; i <= 40; i++) {
      await s.apply(
        update("busy", i % 2 ? "Approved" : "InApplying", ms(100 - i), `m-${String(i).padStart(3, "0")}`),
        NOW,
      );
    }
    expect(await sizeOf()).toBeLessThanOrEqual(first + 20);
    // The winner repeated is a duplicate; an older message, even one applied before, is stale.
    expect(await s.apply(update("busy", "InApplying", ms(60), "m-040"), NOW)).toBe("duplicate");
    expect(await s.apply(update("busy", "Approved", ms(61), "m-039"), NOW)).toBe("stale");
  });

  it("keeps a quarantined body once per SQS message and lists it", async () => {
    const s = store();
    const item = {
      sqsMessageId: "sqs-1",
      reason: "body is not JSON",
      code: "MS_NOT_JSON",
      body: "{oops",
      bodyBytes: 5,
      truncated: false,
      receivedAt: NOW.toISOString(),
    };
    await s.quarantine(item);
    await s.quarantine({ ...item, reason: "again" });
    const listed = await s.quarantined();
    expect(listed).toEqual([item]);
    // Newest first, excerpts read by id (the index keeps the code alone); the audit's read is codes
    // in its window.
    const older = {
      ...item,
      sqsMessageId: "sqs-0",
      code: "MS_BAD_HEADER",
      receivedAt: new Date(ms(90)).toISOString(),
    };
    await s.quarantine(older);
    expect(await s.quarantined()).toEqual([item, older]);
    expect(await s.quarantined(1)).toEqual([item]);
    expect(await s.quarantinedCodes(new Date(ms(60)))).toEqual([
      { code: "MS_NOT_JSON", receivedAt: item.receivedAt },
    ]);
    expect((await s.quarantinedCodes(new Date(ms(120)))).map((q) => q.code)).toEqual([
      "MS_NOT_JSON",
      "MS_BAD_HEADER",
    ]);
    // Quarantined items are not Applications.
    expect((await s.query({}, NOW)).some((r) => r.id.startsWith("QUARANTINE#"))).toBe(false);
  });
});
