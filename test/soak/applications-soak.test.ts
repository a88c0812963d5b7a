import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { applicationTraffic, Random } from "@fleet-auditor/keb-kubeedge-sim";
import { decodeMessage } from "@fleet-auditor/metaserver";
import { DynamoStatusStore, documentClient } from "@fleet-auditor/store";
import { ingestBatch } from "@fleet-auditor/use-cases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startChildDynamo } from "../bench/sim-child.ts";

// Soak: Application messages shuffled, with a tenth of them delivered twice, in SQS
// batches of ten, through the ingest and the real status table; the table must then equal the one
// the test computes on its own: for each Application, its latest message by header time, then
// by how far its status has come (KubeEdge's order, written out here), then by message ID.
// `npm test` runs 600 messages; `npm run test:soak` 100,000.

const LONG = process.env.FLEET_AUDITOR_SOAK === "1";
const MESSAGES = LONG ? 100_000 : 600;

// The order of KubeEdge's ApplicationStatus values as docs/kubeedge.md's message contract states it.
const PROGRESS: Record<string, number> = {
  PreApplying: 1,
  InApplying: 2,
  InProcessing: 3,
  Approved: 4,
  Rejected: 4,
  Failed: 5,
  Completed: 6,
};

// DynamoDB in a child process, as it is remote in production: the ingest has the event loop.
let dynamo: { endpoint: string; stop(): Promise<void> };
let raw: DynamoDBClient;
beforeAll(async () => {
  dynamo = await startChildDynamo(["status:soak-status"]);
  raw = new DynamoDBClient({
    endpoint: dynamo.endpoint,
    region: "local",
    credentials: { accessKeyId: "soak", secretAccessKey: "soak" },
  });
}, 60_000);
afterAll(async () => {
  raw?.destroy();
  await dynamo?.stop();
});

describe("soak: Application messages", () => {
  it(
    `${MESSAGES} messages shuffled with duplicates end in the table the test computes`,
    async () => {
      const traffic = applicationTraffic({
        applications: MESSAGES / 2,
        nodes: Math.max(10, MESSAGES / 10),
        seed: 11,
        // Each Application's two messages take at most 2.4 s of header time: all of them in the past,
        // as the ingest quarantines a header time more than five minutes after SQS received it.
        start: Date.now() - 3_600_000 - (MESSAGES / 2) * 2_400,
        rejectShare: 0.2,
      });
      expect(traffic).toHaveLength(MESSAGES);
      const random = new Random(12);
      const delivered = [...traffic, ...traffic.filter(() => random.next() < 0.1)];
      for (let i = delivered.length - 1; i > 0; i--) {
        const j = Math.floor(random.next() * (i + 1));
        [delivered[i], delivered[j]] = [delivered[j] as string, delivered[i] as string];
      }

      const expected = new Map<string, { status: string; msgId: string; t: number; p: number }>();
      for (const body of traffic) {
        const m = decodeMessage(body);
        for (const a of m.applications) {
          const cand = { status: a.status, msgId: m.msgId, t: m.timestamp, p: PROGRESS[a.status] ?? 0 };
          const cur = expected.get(a.id);
          const later =
            !cur ||
            cand.t > cur.t ||
            (cand.t === cur.t && (cand.p > cur.p || (cand.p === cur.p && cand.msgId > cur.msgId)));
          if (later) expected.set(a.id, cand);
        }
      }

      const store = new DynamoStatusStore({ client: documentClient(raw), tableName: "soak-status" });
      let seq = 0;
      for (let i = 0; i < delivered.length; i += 10) {
        const batch = delivered.slice(i, i + 10).map((body) => ({ messageId: `m-${++seq}`, body }));
        const { failedMessageIds } = await ingestBatch({ store }, batch);
        expect(failedMessageIds).toEqual([]);
      }

      const rows = await store.query({ limit: 10 * MESSAGES }, new Date());
      const table = new Map(rows.map((r) => [r.id, { status: r.status, msgId: r.msgId }]));
      expect(table.size).toBe(expected.size);
      const wrong = [...expected].filter(([id, e]) => {
        const row = table.get(id);
        return row?.status !== e.status || row.msgId !== e.msgId;
      });
      expect(wrong.slice(0, 5), `${wrong.length} Applications differ`).toEqual([]);
    },
    LONG ? 1_800_000 : 120_000,
  );
});
