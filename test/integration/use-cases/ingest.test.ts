import { ProvisionedThroughputExceededException } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { applicationTraffic } from "@fleet-auditor/keb-kubeedge-sim";
import { comparePrecedence, decodeMessage, statusRank } from "@fleet-auditor/metaserver";
import { DynamoStatusStore } from "@fleet-auditor/store";
import { ingestBatch } from "@fleet-auditor/use-cases";
import { mockClient } from "aws-sdk-client-mock";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { useDynamoStatus } from "../../helpers/dynamo.ts";

const env = useDynamoStatus("ingest");
const store = () => new DynamoStatusStore({ client: env.db.client, tableName: "ingest" });
let seq = 0;
const records = (bodies: readonly string[]) => bodies.map((body) => ({ messageId: `sqs-${++seq}`, body }));

/** The row each Application ID must end with: the greatest message by (timestamp, rank, msg_id). */
function expectedWinners(bodies: readonly string[]): Map<string, { status: string; msgId: string }> {
  const best = new Map<string, { status: string; msgId: string; timestamp: number; rank: number }>();
  for (const body of bodies) {
    const m = decodeMessage(body);
    for (const a of m.applications) {
      const cand = { status: a.status, msgId: m.msgId, timestamp: m.timestamp, rank: statusRank(a.status) };
      const cur = best.get(a.id);
      if (!cur || comparePrecedence(cand, cur) > 0) best.set(a.id, cand);
    }
  }
  return new Map([...best].map(([id, v]) => [id, { status: v.status, msgId: v.msgId }]));
}

async function rowsOf(ids: Iterable<string>): Promise<Map<string, { status: string; msgId: string }>> {
  const wanted = new Set(ids);
  const rows = await store().query({ limit: 100_000 }, new Date());
  return new Map(
    rows.filter((r) => wanted.has(r.id)).map((r) => [r.id, { status: r.status, msgId: r.msgId }]),
  );
}

describe("ingestBatch on the real status table", () => {
  it("writes each Application once per batch and counts stale and duplicate messages", async () => {
    const traffic = applicationTraffic({ applications: 20, seed: 3 });
    const batch = [...traffic, ...traffic.slice(0, 5)];
    // Identical requests from one node share an ID, as in KubeEdge: count the distinct ones.
    const ids = new Set(traffic.map((b) => decodeMessage(b).applications[0]?.id)).size;
    const { failedMessageIds, counts } = await ingestBatch({ store: store() }, records(batch));
    expect(failedMessageIds).toEqual([]);
    expect(counts).toMatchObject({
      records: 45,
      applied: ids,
      duplicate: 5,
      stale: 40 - ids,
      quarantined: 0,
      failed: 0,
    });
    const again = await ingestBatch({ store: store() }, records(traffic));
    expect(again.counts).toMatchObject({ applied: 0, duplicate: ids, stale: 40 - ids });
  });

  it("quarantines the records of a write DynamoDB refuses for good, instead of retrying them into the DLQ", async () => {
    const [good] = applicationTraffic({ applications: 1, seed: 11 });
    const huge = JSON.stringify({
      header: { msg_id: "m-huge", timestamp: 1 },
      route: { resource: "node/edge-1/null" },
      content: { ID: "x".repeat(3_000), Key: "/core/v1/pods/default/p", Verb: "get", Status: "InApplying" },
    });
    const batch = records([good as string, huge]);
    const { failedMessageIds, counts } = await ingestBatch({ store: store() }, batch);
    expect(failedMessageIds).toEqual([]);
    expect(counts).toMatchObject({ applied: 1, quarantined: 1, failed: 0 });
    const q = (await store().quarantined()).find((item) => item.sqsMessageId === batch[1]?.messageId);
    expect(q).toMatchObject({ code: "STORE_REFUSED" });
    expect(q?.reason).toMatch(
      /^DynamoDB refused the write of Application x+…? for good: ValidationException/,
    );
  });

  it("keeps a redacted 4 KiB excerpt of a quarantined body, never the body", async () => {
    const body = `not json: client_secret=hunter22hunter22 ${"z".repeat(40_000)}`;
    const [record] = records([body]);
    const { counts } = await ingestBatch({ store: store() }, [record as { messageId: string; body: string }]);
    expect(counts).toMatchObject({ quarantined: 1, failed: 0 });
    const q = (await store().quarantined()).find((item) => item.sqsMessageId === record?.messageId);
    expect(q).toMatchObject({ code: "MS_NOT_JSON", bodyBytes: Buffer.byteLength(body), truncated: true });
    expect(Buffer.byteLength(q?.body ?? "")).toBeLessThanOrEqual(4 * 1024);
    expect(q?.body).toMatch(/^not json: client_secret=\[redacted\] z+$/);
  });

  it("quarantines a message timed more than five minutes after SQS received it, and keeps any past time", async () => {
    const received = Date.UTC(2026, 10, 30, 12, 0);
    const body = (id: string, timestamp: number) =>
      JSON.stringify({
        header: { msg_id: `m-${id}`, timestamp },
        route: { resource: "node/edge-clock/null" },
        content: { ID: id, Key: `/core/v1/configmaps/default/${id}`, Verb: "get", Status: "InApplying" },
      });
    const batch = [
      { messageId: "far", body: body("clock-far", 9_000_000_000_000_000), sentAt: received },
      { messageId: "ahead", body: body("clock-ahead", received + 6 * 60_000), sentAt: received },
      { messageId: "skewed", body: body("clock-skewed", received + 4 * 60_000), sentAt: received },
      { messageId: "backlog", body: body("clock-backlog", received - 7 * 86_400_000), sentAt: received },
      // A console test event can say anything: a sent time after the handler's clock is not believed.
      {
        messageId: "forged",
        body: body("clock-forged", 9_000_000_000_000_000),
        sentAt: 9_000_000_000_000_000,
      },
      // No sent time (the CLI): the handler's clock stands in.
      { messageId: "unsent", body: body("clock-unsent", received + 86_400_000 + 60 * 60_000) },
    ];
    // The handler runs a day after SQS received them: a backlog replayed after an outage.
    const now = new Date(received + 86_400_000);
    const { failedMessageIds, counts } = await ingestBatch({ store: store(), clock: () => now }, batch);
    expect(failedMessageIds).toEqual([]);
    expect(counts).toMatchObject({ applied: 2, quarantined: 4, failed: 0 });
    const rows = await store().query({ node: "edge-clock" }, now);
    expect(rows.map((r) => r.id).sort()).toEqual(["clock-backlog", "clock-skewed"]);
    const quarantined = new Map((await store().quarantined(1_000)).map((q) => [q.sqsMessageId, q]));
    for (const id of ["far", "ahead", "forged", "unsent"])
      expect(quarantined.get(id), id).toMatchObject({ code: "MS_FUTURE_TIMESTAMP" });
    expect(quarantined.get("far")?.reason).toMatch(
      /^header\.timestamp 9000000000000000 \(past the year 9999\) is \d+ minute\(s\) after SQS received the message \(2026-11-30T12:00:00\.000Z\); at most 5 minute\(s\) of clock skew are accepted$/,
    );
    expect(quarantined.get("ahead")?.reason).toMatch(/\(2026-11-30T12:06:00\.000Z\) is 6 minute\(s\) after/);
  });

  it("counts the records a deadline hands back as deferred, not failed, and writes none after it", async () => {
    const traffic = applicationTraffic({ applications: 4, seed: 41, distinct: true });
    const batch = records([...traffic, "not json at all"]);
    const { failedMessageIds, counts } = await ingestBatch(
      { store: store(), deadline: AbortSignal.abort() },
      batch,
    );
    expect(failedMessageIds).toEqual(batch.map((r) => r.messageId));
    expect(counts).toMatchObject({ records: 9, applied: 0, quarantined: 0, failed: 0, deferred: 9 });
    const ids = new Set(traffic.map((b) => decodeMessage(b).applications[0]?.id as string));
    expect((await rowsOf(ids)).size).toBe(0);
  });

  it("reports only the records of a write that failed for a transient reason (injected throttling)", async () => {
    const real = DynamoDBDocumentClient.from(env.db.client);
    const faulty = DynamoDBDocumentClient.from(env.db.client);
    const traffic = applicationTraffic({ applications: 6, seed: 9 });
    const victim = decodeMessage(traffic[4] as string).applications[0]?.id;
    const mock = mockClient(faulty);
    mock.on(UpdateCommand).callsFake(async (input: { Key: { id: string } }) => {
      if (input.Key.id === victim)
        throw new ProvisionedThroughputExceededException({ message: "Rate exceeded", $metadata: {} });
      return real.send(new UpdateCommand(input as unknown as ConstructorParameters<typeof UpdateCommand>[0]));
    });
    const batch = records(traffic);
    const result = await ingestBatch(
      { store: new DynamoStatusStore({ client: faulty, tableName: "ingest" }) },
      batch,
    );
    mock.restore();
    expect(result.counts).toMatchObject({ applied: 5, failed: 1 });
    expect(result.failedMessageIds).toEqual([batch[4]?.messageId, batch[5]?.messageId]);
    // SQS redelivers them; now they go through.
    const retry = await ingestBatch({ store: store() }, [batch[4], batch[5]] as typeof batch);
    expect(retry).toMatchObject({ failedMessageIds: [], counts: { applied: 1 } });
  });

  it("ends with the same table for any shuffle, duplication and batching of the messages (property)", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(fc.nat(), { maxLength: 15 }),
        fc.array(fc.integer({ min: 1, max: 10 }), { minLength: 1, maxLength: 8 }),
        async (seed, dupPicks, batchSizes) => {
          // Each run starts later than the last, so that IDs shared with an earlier run's rows are superseded.
          const start = Date.UTC(2027, 0, 1) + ++run * 86_400_000;
          const traffic = applicationTraffic({ applications: 8, nodes: 3, seed, start, rejectShare: 0.3 });
          const dups = dupPicks.map((i) => traffic[i % traffic.length] as string);
          const delivered = fc.sample(
            fc.shuffledSubarray([...traffic, ...dups], { minLength: traffic.length + dups.length }),
            { seed, numRuns: 1 },
          )[0] as string[];
          let i = 0;
          let b = 0;
          while (i < delivered.length) {
            const size = batchSizes[b++ % batchSizes.length] as number;
            // Received after they were sent: header times in 2027 are not from the future then.
            const { failedMessageIds } = await ingestBatch(
              { store: store(), clock: () => new Date(start + 86_400_000) },
              records(delivered.slice(i, i + size)),
            );
            expect(failedMessageIds).toEqual([]);
            i += size;
          }
          const expected = expectedWinners(traffic);
          expect(await rowsOf(expected.keys())).toEqual(expected);
        },
      ),
      // The rule is checked 15 times on dynalite; DynamoDB Local's half checks AWS's refusals.
      { numRuns: process.env.FLEET_AUDITOR_DYNAMO === "local" ? 5 : 15 },
    );
  });

  it("never crashes on any byte string as a body: each is applied, quarantined or reported (property)", async () => {
    const valid = applicationTraffic({ applications: 3, seed: 77 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString("utf8")),
            fc.string(),
            fc.json(),
            fc.constantFrom(...valid),
          ),
          {
            minLength: 1,
            maxLength: 10,
          },
        ),
        async (bodies) => {
          const { failedMessageIds, counts } = await ingestBatch({ store: store() }, records(bodies));
          expect(failedMessageIds).toEqual([]);
          const decodable = bodies.filter((b) => {
            try {
              decodeMessage(b);
              return true;
            } catch {
              return false;
            }
          }).length;
          expect(counts.quarantined).toBe(bodies.length - decodable);
        },
      ),
      { numRuns: process.env.FLEET_AUDITOR_DYNAMO === "local" ? 20 : 60 },
    );
  });
});
