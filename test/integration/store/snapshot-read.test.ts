import { HEALTHY, type SnapshotEntry } from "@fleet-auditor/audit";
import { DynamoAuditStore } from "@fleet-auditor/store";
import { describe, expect, it } from "vitest";
import { inFlight } from "../../helpers/aws-requests.ts";
import { useDynamo } from "../../helpers/dynamo.ts";
import { finding } from "../../helpers/findings.ts";

// The snapshot is read in parallel over sort-key ranges: together they must still hold every
// snapshot item, whatever an instance ID holds (KEB's are UUIDs, a hostile or odd one is not),
// and nothing else of the audit's partition.

const env = useDynamo();
const store = (): DynamoAuditStore => new DynamoAuditStore({ client: env.db.client, tableName: "audit" });
const entry = (id: string): SnapshotEntry => ({
  key: id,
  phase: "firing",
  finding: finding(id),
  flaggedRuns: 1,
  clearRuns: 0,
  firstSeenAt: "2026-11-01T00:00:00.000Z",
  notifiedAt: null,
  version: 1,
});
const T0 = new Date("2026-11-01T00:00:00Z");
const T1 = new Date("2026-11-01T00:05:00Z");

/** Instance IDs on and around every range boundary, and outside the hex digits UUIDs use. */
const ODD_IDS = [
  "",
  "0",
  "3",
  "3fffffff",
  "4",
  "4-",
  "40",
  "7~",
  "8",
  "9",
  "ABCDEF",
  "Zulu",
  "b",
  "c",
  "c0ffee",
  "f",
  "ffffffff-ffff-ffff-ffff-ffffffffffff",
  "z",
  "~",
  "#",
  "$",
  " leading space",
  "Ünïcödé",
  "日本語",
  "\u{1F600}",
  "\u{10FFFF}",
  "RT#nested",
];

/** Byte order, as DynamoDB sorts string keys. */
const byKeyBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

describe("DynamoAuditStore.loadSnapshot over key ranges", () => {
  it("reads every snapshot item once, whatever its instance ID holds, and nothing else of the partition", async () => {
    const s = store();
    const ids = [...ODD_IDS, ...Array.from({ length: 300 }, () => crypto.randomUUID())];
    await s.acquireLease("odd", "run-1", T0, T1);
    await s.commit(
      "odd",
      ids.map((id) => ({ op: "put" as const, entry: entry(id) })),
      { owner: "run-1", until: T1 },
    );
    await s.beginPublishing("odd", { owner: "run-1", until: T1 });
    await s.saveHealth("odd", HEALTHY);
    await s.acquireLease("odd-neighbour", "run-1", T0, T1);
    await s.commit("odd-neighbour", [{ op: "put", entry: entry("4") }], { owner: "run-1", until: T1 });

    const snapshot = await s.loadSnapshot("odd");
    expect([...snapshot.keys()].sort(byKeyBytes)).toEqual([...ids].sort(byKeyBytes));
    expect(snapshot.get("4")).toEqual(entry("4"));
    expect(snapshot.get("\u{1F600}")).toEqual(entry("\u{1F600}"));
  });

  it("returns the entries in key order, as one Query would", async () => {
    const s = store();
    const ids = [...ODD_IDS, ...Array.from({ length: 100 }, () => crypto.randomUUID())];
    await s.acquireLease("ordered", "run-1", T0, T1);
    await s.commit(
      "ordered",
      ids.map((id) => ({ op: "put" as const, entry: entry(id) })),
      { owner: "run-1", until: T1 },
    );
    const keys = [...(await s.loadSnapshot("ordered")).keys()];
    expect(keys).toEqual([...ids].sort((a, b) => byKeyBytes(`RT#${a}`, `RT#${b}`)));
  });

  it("reads the key ranges with Queries in flight at once", async () => {
    const s = store();
    await s.acquireLease("parallel", "run-1", T0, T1);
    await s.commit(
      "parallel",
      Array.from({ length: 400 }, () => ({ op: "put" as const, entry: entry(crypto.randomUUID()) })),
      { owner: "run-1", until: T1 },
    );
    const queries = inFlight(env.db.client, "QueryCommand");
    expect((await s.loadSnapshot("parallel")).size).toBe(400);
    expect(queries.max).toBeGreaterThanOrEqual(4);
  });
});
