import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { DynamoMessageOrder, itemKey } from "@fleet-auditor/store";
import { describe, expect, it } from "vitest";
import { useDynamo } from "../../helpers/dynamo.ts";

// Each key's last applied message in the audit table: a message is held, then recorded; nothing
// at or before the last recorded place is held again, and two holds of one key never run at once.

const env = useDynamo(["order"]);
const T0 = Date.parse("2026-12-01T08:00:00.000Z");
let now = T0;
const order = (receiver: "slack" | "pager" = "pager") =>
  new DynamoMessageOrder({ client: env.db.client, tableName: "order", receiver, clock: () => now });
const held = async (o: DynamoMessageOrder, key: string, place: number, until = now + 30_000) => {
  const hold = await o.hold(key, place, until);
  if (hold.kind !== "held") throw new Error(`expected a hold, got ${JSON.stringify(hold)}`);
  return hold.token;
};

describe("DynamoMessageOrder", () => {
  it("records a message applied under its hold, and refuses to hold it or an older one again", async () => {
    const o = order();
    const token = await held(o, "inc-a", 200);
    expect(await o.applied("inc-a", 200, token)).toBe(true);
    expect(await o.hold("inc-a", 200, now + 30_000)).toEqual({ kind: "applied", last: 200 });
    expect(await o.hold("inc-a", 100, now + 30_000)).toEqual({ kind: "applied", last: 200 });
    const later = await held(o, "inc-a", 201);
    expect(await o.applied("inc-a", 201, later)).toBe(true);
    const { Item } = await env.db.client.send(
      new GetCommand({ TableName: "order", Key: itemKey.messageOrder("pager", "inc-a") }),
    );
    expect(Item).toEqual({
      pk: "PAGER#inc-a",
      sk: "ORDER",
      key: "inc-a",
      applied: 201,
      appliedAt: "2026-12-01T08:00:00.000Z",
      ttl: T0 / 1000 + 90 * 86_400,
    });
  });

  it("keeps each receiver's order apart: the Slack function's under SLACK#, the pager's under PAGER#", async () => {
    const pager = order("pager");
    expect(await pager.applied("inc-b", 300, await held(pager, "inc-b", 300))).toBe(true);
    const slack = order("slack");
    expect((await slack.hold("inc-b", 300, now + 30_000)).kind).toBe("held");
  });

  it("lets a released message be held again, so that its retry applies it", async () => {
    const o = order();
    const first = await held(o, "inc-c", 400);
    await o.release("inc-c", first);
    const retry = await held(o, "inc-c", 400);
    expect(await o.applied("inc-c", 400, retry)).toBe(true);
    // The first attempt's token no longer holds anything: it records nothing, and lets go of nothing.
    expect(await o.applied("inc-c", 500, first)).toBe(false);
    await o.release("inc-c", first);
    expect(await o.hold("inc-c", 400, now + 30_000)).toEqual({ kind: "applied", last: 400 });
  });

  it("gives a key to one of two messages held at once; the other is busy until the hold ends", async () => {
    const o = order();
    const until = now + 30_000;
    const holds = await Promise.all([o.hold("inc-race", 600, until), o.hold("inc-race", 601, until)]);
    expect(holds.map((h) => h.kind).sort()).toEqual(["busy", "held"]);
    expect(holds.find((h) => h.kind === "busy")).toEqual({ kind: "busy", until });
    // A newer message waits for the older one in flight; once it is recorded, the newer is held.
    const winner = holds.find((h) => h.kind === "held") as { kind: "held"; token: string };
    const place = holds[0]?.kind === "held" ? 600 : 601;
    expect(await o.applied("inc-race", place, winner.token)).toBe(true);
    const next = await o.hold("inc-race", 601, until);
    expect(next.kind).toBe(place === 600 ? "held" : "applied");
  });

  it("lets a hold run out at its deadline: a killed delivery keeps the key no longer, and loses what it held", async () => {
    const o = order();
    const stuck = await held(o, "inc-d", 700, now + 1_000);
    expect(await o.hold("inc-d", 800, now + 30_000)).toEqual({ kind: "busy", until: now + 1_000 });
    now += 1_000;
    try {
      const taken = await held(o, "inc-d", 800);
      expect(await o.applied("inc-d", 700, stuck)).toBe(false);
      expect(await o.applied("inc-d", 800, taken)).toBe(true);
    } finally {
      now = T0;
    }
  });
});
