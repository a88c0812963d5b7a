import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { DynamoSlackThreads, itemKey } from "@fleet-auditor/store";
import { describe, expect, it } from "vitest";
import { useDynamo } from "../../helpers/dynamo.ts";

// Each incident's Slack thread parent in the audit table: kept once (the first post stays the
// parent), per channel, and forgotten after its retention even before TTL deletes it.

const env = useDynamo(["threads"]);
const DAY = 86_400_000;
const T0 = Date.parse("2026-12-01T08:00:00.000Z");
const threads = (over: { channel?: string; at?: number } = {}) =>
  new DynamoSlackThreads({
    client: env.db.client,
    tableName: "threads",
    channel: over.channel ?? "C0ALERTS",
    clock: () => over.at ?? T0,
  });

describe("DynamoSlackThreads", () => {
  it("keeps an incident's parent and reads it back; another incident or another channel has none", async () => {
    expect(await threads().parentOf("inc-a")).toBeUndefined();
    expect(await threads().keepParent("inc-a", "1764000001.000001")).toBe("1764000001.000001");
    expect(await threads().parentOf("inc-a")).toBe("1764000001.000001");
    expect(await threads().parentOf("inc-b")).toBeUndefined();
    expect(await threads({ channel: "C0OTHER" }).parentOf("inc-a")).toBeUndefined();
    const { Item } = await env.db.client.send(
      new GetCommand({ TableName: "threads", Key: itemKey.slackThread("inc-a", "C0ALERTS") }),
    );
    expect(Item).toMatchObject({
      pk: "SLACK#inc-a",
      sk: "THREAD#C0ALERTS",
      incidentKey: "inc-a",
      postedAt: "2026-12-01T08:00:00.000Z",
      ttl: T0 / 1000 + 90 * 86_400,
    });
  });

  it("keeps the first parent when two posts race to start the thread", async () => {
    const [a, b] = await Promise.all([
      threads().keepParent("inc-race", "1764000002.000002"),
      threads().keepParent("inc-race", "1764000003.000003"),
    ]);
    expect(a).toBe(b);
    expect(await threads().parentOf("inc-race")).toBe(a);
    expect(await threads().keepParent("inc-race", "1764000004.000004")).toBe(a);
  });

  it("forgets a parent after 90 days, before TTL deletes it, and keeps a new one in its place", async () => {
    await threads().keepParent("inc-long", "1764000005.000005");
    expect(await threads({ at: T0 + 89 * DAY }).parentOf("inc-long")).toBe("1764000005.000005");
    const later = threads({ at: T0 + 91 * DAY });
    expect(await later.parentOf("inc-long")).toBeUndefined();
    expect(await later.keepParent("inc-long", "1771800000.000006")).toBe("1771800000.000006");
    expect(await later.parentOf("inc-long")).toBe("1771800000.000006");
  });
});
