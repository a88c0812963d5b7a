import { decodeMessage, type StatusUpdate, toUpdate } from "@fleet-auditor/metaserver";
import {
  matchesStatusQuery,
  QUARANTINE_PREFIX,
  quarantineToItem,
  STATUS_ATTRIBUTES,
  STATUS_INDEXES,
  statusQueryInput,
  statusTableDefinition,
  statusUpdateCommand,
  toQuarantineItem,
  toRow,
  WATCH_PROJECTION,
  WATCH_SHARDS,
  watchKey,
  watchKeys,
} from "@fleet-auditor/store";
import { describe, expect, it } from "vitest";

// The status table's pure codec and expression builders, without a server.

const NOW = new Date(Date.UTC(2026, 10, 30, 12, 0));
const TTL = { finishedTtlHours: 72, unfinishedTtlDays: 30 };

function update(status: string, extra: Record<string, unknown> = {}, node = "edge-1"): StatusUpdate {
  const m = decodeMessage(
    JSON.stringify({
      header: { msg_id: "m-1", timestamp: NOW.getTime() - 60_000 },
      route: { resource: `node/${node}/null` },
      content: {
        ID: "app-1",
        Key: "/apps/v1/deployments/default/nginx",
        Verb: "get",
        Status: status,
        ...extra,
      },
    }),
  );
  return toUpdate(m, m.applications[0] as NonNullable<(typeof m.applications)[0]>);
}

/** Every `#name` and `:value` is used by an expression: DynamoDB refuses the request otherwise. */
function expectAllUsed(input: {
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
  [expression: string]: unknown;
}): void {
  const text = Object.entries(input)
    .filter(([k]) => k.endsWith("Expression"))
    .map(([, v]) => String(v))
    .join(" ");
  for (const token of [
    ...Object.keys(input.ExpressionAttributeNames ?? {}),
    ...Object.keys(input.ExpressionAttributeValues ?? {}),
  ]) {
    expect(text, `${token} is unused`).toMatch(new RegExp(`${token}(?![\\w])`));
  }
}

/** The item the SET clauses of an update command would write. */
function itemOf(cmd: ReturnType<typeof statusUpdateCommand>): Record<string, unknown> {
  const item: Record<string, unknown> = { ...cmd.Key };
  const sets = /^SET (.*?)(?: ADD | REMOVE |$)/.exec(cmd.UpdateExpression ?? "")?.[1] ?? "";
  for (const [, name, value] of sets.matchAll(/(#\w+) = (:\w+)/g)) {
    item[cmd.ExpressionAttributeNames?.[name as string] as string] =
      cmd.ExpressionAttributeValues?.[value as string];
  }
  item[STATUS_ATTRIBUTES.firstSeenAt] = NOW.toISOString();
  return item;
}

describe("statusUpdateCommand", () => {
  it("writes over an older message only, keeps firstSeenAt, keeps no growing msg_id set, and uses every name and value", () => {
    const cmd = statusUpdateCommand("status", update("InApplying"), NOW, TTL);
    expect(cmd.Key).toEqual({ id: "app-1" });
    expect(cmd.ConditionExpression).toBe(
      "attribute_not_exists(#id) OR #ts > :ceiling OR #ts < :ts OR (#ts = :ts AND #rank < :rank) OR (#ts = :ts AND #rank = :rank AND #msgId < :msgId)",
    );
    // A stored time past ten minutes from now came from no clock: any message replaces it.
    expect(cmd.ExpressionAttributeValues?.[":ceiling"]).toBe(NOW.getTime() + 10 * 60_000);
    expect(cmd.UpdateExpression).toContain("#firstSeenAt = if_not_exists(#firstSeenAt, :now)");
    // The item stays one size however many messages an Application gets.
    expect(cmd.UpdateExpression).not.toContain(" ADD ");
    expect(cmd.UpdateExpression).toMatch(/ REMOVE #msgIds(,|$)/);
    expect(cmd.ReturnValuesOnConditionCheckFailure).toBe("ALL_OLD");
    expectAllUsed(cmd);
  });

  it("uses the short attribute names of STATUS_ATTRIBUTES", () => {
    const names = Object.values(
      statusUpdateCommand("status", update("Approved"), NOW, TTL).ExpressionAttributeNames ?? {},
    );
    expect(names).toEqual(expect.arrayContaining(["grp", "ver", "res", "ns", "ts"]));
    expect(names).not.toContain("group");
    expect(names).not.toContain("namespace");
  });

  it("never writes an empty string to an index key: DynamoDB refuses it, dynalite does not", () => {
    const keys = (statusTableDefinition("status").GlobalSecondaryIndexes ?? []).flatMap((i) =>
      (i.KeySchema ?? []).map((k) => k.AttributeName as string),
    );
    expect(keys.length).toBeGreaterThan(0);
    for (const [status, node] of [
      ["", ""],
      ["", "edge-1"],
      ["Approved", ""],
    ] as const) {
      const cmd = statusUpdateCommand("status", update(status, {}, node), NOW, TTL);
      const item = itemOf(cmd);
      for (const key of keys) expect(item[key], `${key} of Status "${status}", node "${node}"`).not.toBe("");
      expectAllUsed(cmd);
    }
  });

  it("removes an empty node (an index key may not be empty) and error fields the update does not have", () => {
    const cmd = statusUpdateCommand("status", update("Approved", {}, ""), NOW, TTL);
    expect(cmd.UpdateExpression).toMatch(
      / REMOVE #msgIds, #node, #wk, #errorCode, #errorReason, #errorMessage$/,
    );
    expect(Object.keys(cmd.ExpressionAttributeValues ?? {})).not.toContain(":node");
    expectAllUsed(cmd);
  });

  it("sets a rejection's error code, reason and message", () => {
    const rejected = update("Rejected", {
      Error: {
        ErrStatus: {
          status: "Failure",
          message: 'deployments "nginx" not found',
          reason: "NotFound",
          code: 404,
        },
      },
    });
    const cmd = statusUpdateCommand("status", rejected, NOW, TTL);
    expect(cmd.ExpressionAttributeValues).toMatchObject({
      ":errorCode": 404,
      ":errorReason": "NotFound",
      ":errorMessage": 'deployments "nginx" not found',
    });
    expect(cmd.UpdateExpression).not.toContain("REMOVE #node");
    expectAllUsed(cmd);
  });

  it("keeps finished rows for hours and unfinished ones for days", () => {
    const ttlOf = (status: string) =>
      Number(statusUpdateCommand("status", update(status), NOW, TTL).ExpressionAttributeValues?.[":ttl"]);
    const nowS = NOW.getTime() / 1000;
    expect(ttlOf("Approved") - nowS).toBe(72 * 3600);
    expect(ttlOf("InApplying") - nowS).toBe(30 * 86_400);
  });
});

describe("toRow", () => {
  it("reads back what an update wrote, with the message time as ISO", () => {
    const u = update("Rejected", { Error: { ErrStatus: { reason: "Forbidden", code: 403 } } });
    const row = toRow(itemOf(statusUpdateCommand("status", u, NOW, TTL)));
    expect(row).toEqual({
      id: "app-1",
      key: "/apps/v1/deployments/default/nginx",
      group: "apps",
      version: "v1",
      resource: "deployments",
      namespace: "default",
      name: "nginx",
      verb: "get",
      subresource: "",
      node: "edge-1",
      status: "Rejected",
      reason: u.reason,
      messageTime: new Date(NOW.getTime() - 60_000).toISOString(),
      msgId: "m-1",
      kind: u.kind,
      firstSeenAt: NOW.toISOString(),
      updatedAt: NOW.toISOString(),
      sizes: u.sizes,
      error: { code: 403, reason: "Forbidden" },
    });
  });

  it("reads an item without optional attributes as empty, without an error", () => {
    const row = toRow({ id: "x", ts: 0 });
    expect(row).toMatchObject({ id: "x", node: "", status: "", messageTime: "1970-01-01T00:00:00.000Z" });
    expect(row.error).toBeUndefined();
  });
});

describe("statusQueryInput", () => {
  const since = new Date(NOW.getTime() - 3_600_000);
  /** The node read of a query that names a node. */
  const byNode = (read: ReturnType<typeof statusQueryInput>) => {
    if (read.op !== "node") throw new Error(`expected a node read, got ${read.op}`);
    return read;
  };

  it("lists a node's IDs from byNodeId (keys only, nothing to filter)", () => {
    const read = byNode(
      statusQueryInput("status", { node: "edge-1", status: "Rejected", since, limit: 5 }, NOW),
    );
    expect(read.limit).toBe(5);
    expect(read.input).toEqual({
      TableName: "status",
      IndexName: STATUS_INDEXES.byNode,
      KeyConditionExpression: "#node = :node",
      ExpressionAttributeNames: { "#node": "node" },
      ExpressionAttributeValues: { ":node": "edge-1" },
    });
    expectAllUsed(read.input);
  });

  it("scans for a node's rows, filtered as the index reads are, where a table has no node index", () => {
    const read = byNode(
      statusQueryInput("status", { node: "edge-1", status: "Rejected", since, limit: 5 }, NOW),
    );
    expect(read.scan).toEqual({
      TableName: "status",
      FilterExpression: "#node = :node AND #ttl > :nowS AND #status = :status AND #ts >= :since",
      ExpressionAttributeNames: { "#node": "node", "#ts": "ts", "#ttl": "ttl", "#status": "status" },
      ExpressionAttributeValues: {
        ":node": "edge-1",
        ":status": "Rejected",
        ":since": since.getTime(),
        ":nowS": NOW.getTime() / 1000,
      },
    });
    expectAllUsed(read.scan);
    expectAllUsed(byNode(statusQueryInput("status", { node: "edge-2" }, NOW)).scan);
  });

  it("holds a node's rows, read whole, to the query as the index filters would", () => {
    const nowS = NOW.getTime() / 1000;
    const row = { id: "a", node: "edge-1", status: "Rejected", ts: since.getTime(), ttl: nowS + 1 };
    const q = { node: "edge-1", status: "Rejected", since };
    expect(matchesStatusQuery(row, q, NOW)).toBe(true);
    expect(matchesStatusQuery({ ...row, ttl: nowS }, q, NOW)).toBe(false);
    expect(matchesStatusQuery({ ...row, status: "Failed" }, q, NOW)).toBe(false);
    expect(matchesStatusQuery({ ...row, ts: since.getTime() - 1 }, q, NOW)).toBe(false);
    expect(matchesStatusQuery({ ...row, status: "Failed", ts: 0 }, { node: "edge-1" }, NOW)).toBe(true);
    expect(matchesStatusQuery({ ...row, status: "Failed" }, { node: "edge-1", status: "" }, NOW)).toBe(true);
  });

  it("queries every byWatch shard of a watched status, and scans for a node without a status filter with a node alone", () => {
    for (const [status, set] of [
      ["InApplying", "open"],
      ["Rejected", "refused"],
      ["Failed", "refused"],
      ["SomethingNew", "open"],
    ] as const) {
      const read = statusQueryInput("status", { status, limit: 7 }, NOW);
      if (read.op !== "watch") throw new Error(`expected the watch shards, got ${read.op}`);
      expect(read.limit).toBe(7);
      expect(read.inputs.map((i) => i.ExpressionAttributeValues?.[":wk"])).toEqual(watchKeys(set));
      for (const input of read.inputs) {
        expect(input).toMatchObject({
          IndexName: STATUS_INDEXES.watch,
          KeyConditionExpression: "#wk = :wk AND #ts >= :since",
          FilterExpression: "#ttl > :nowS AND #status = :status",
          ScanIndexForward: false,
        });
        expectAllUsed(input);
      }
    }
    const node = byNode(statusQueryInput("status", { node: "edge-2" }, NOW));
    expect(node.scan.FilterExpression).toBe("#node = :node AND #ttl > :nowS AND #ts >= :since");
    expectAllUsed(node.scan);
  });

  it("reads rows in no index (Approved, Completed) and everything with a scan that stops at the limit", () => {
    for (const q of [{ status: "Approved" }, { status: "Completed", since }, {}]) {
      const read = statusQueryInput("status", { ...q, limit: 5 }, NOW);
      if (read.op !== "scan") throw new Error(`expected a bounded scan, got ${read.op}`);
      expect(read.limit).toBe(5);
      expect(read.input.FilterExpression).toContain("#ts >= :since");
      expectAllUsed(read.input);
    }
  });
});

describe("the byWatch key", () => {
  it("watches unfinished and refused rows only, on a shard the Application keeps", () => {
    expect(watchKey("Approved", "a")).toBeUndefined();
    expect(watchKey("Completed", "a")).toBeUndefined();
    expect(watchKey("", "a")).toBeUndefined();
    const open = watchKey("PreApplying", "app-1");
    expect(open).toMatch(/^open#\d+$/);
    expect(watchKey("InProcessing", "app-1")).toBe(open);
    expect(watchKey("Rejected", "app-1")).toBe(open?.replace("open", "refused"));
    for (const status of ["PreApplying", "Rejected"]) {
      const cmd = statusUpdateCommand("status", update(status), NOW, TTL);
      expect(itemOf(cmd).wk).toBe(watchKey(status, "app-1"));
    }
    expect(statusUpdateCommand("status", update("Approved"), NOW, TTL).UpdateExpression).toContain("#wk");
    expect(itemOf(statusUpdateCommand("status", update("Approved"), NOW, TTL)).wk).toBeUndefined();
  });

  it("spreads Application IDs evenly over the shards", () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 32_000; i++) {
      const key = watchKey("InApplying", `${i.toString(16).padStart(8, "0")}-edge`) as string;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(WATCH_SHARDS);
    // 1,000 per shard on average; a fair hash stays within a few standard deviations (~32).
    expect(Math.max(...counts.values())).toBeLessThan(1_150);
    expect(Math.min(...counts.values())).toBeGreaterThan(850);
  });

  it("projects what the applications audit reads, and not the sizes, message ids or kinds", () => {
    const watch = statusTableDefinition("status").GlobalSecondaryIndexes?.find(
      (i) => i.IndexName === STATUS_INDEXES.watch,
    );
    expect(watch?.Projection).toEqual({ ProjectionType: "INCLUDE", NonKeyAttributes: [...WATCH_PROJECTION] });
    for (const attr of ["sizes", "msgId", "kind", "appTimestamp", "updatedAt"]) {
      expect(WATCH_PROJECTION as readonly string[]).not.toContain(attr);
    }
  });
});

describe("quarantine items", () => {
  it("are keyed by the SQS message id, kept for the TTL, and read back as they were", () => {
    const q = {
      sqsMessageId: "sqs-1",
      reason: "body is not JSON",
      code: "MS_NOT_JSON",
      body: "{oops",
      bodyBytes: 5,
      truncated: false,
      receivedAt: NOW.toISOString(),
    };
    const item = quarantineToItem(q, 30);
    expect(item).toMatchObject({
      id: `${QUARANTINE_PREFIX}sqs-1`,
      qk: "Q",
      ttl: NOW.getTime() / 1000 + 30 * 86_400,
    });
    expect(toQuarantineItem(item)).toEqual(q);
  });
});
