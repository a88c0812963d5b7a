import {
  coalesce,
  comparePrecedence,
  decodeMessage,
  type StatusUpdate,
  statusRank,
  toUpdate,
} from "@fleet-auditor/metaserver";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const update = (id: string, status: string, timestamp: number, msgId: string): StatusUpdate => {
  const m = decodeMessage(
    JSON.stringify({
      header: { msg_id: msgId, timestamp },
      route: { resource: "node/n1/null" },
      content: { ID: id, Key: "/core/v1/pods/a/b", Verb: "get", Status: status },
    }),
  );
  return toUpdate(m, m.applications[0] as NonNullable<(typeof m.applications)[0]>);
};

describe("status precedence", () => {
  it("ranks PreApplying < InApplying < InProcessing < Approved = Rejected < Failed < Completed", () => {
    const ranks = [
      "PreApplying",
      "InApplying",
      "InProcessing",
      "Approved",
      "Rejected",
      "Failed",
      "Completed",
    ].map(statusRank);
    expect(ranks).toEqual([1, 2, 3, 4, 4, 5, 6]);
    expect(statusRank("Bogus")).toBe(0);
  });

  it("orders by timestamp, then rank, then msg_id", () => {
    expect(
      comparePrecedence({ timestamp: 2, rank: 1, msgId: "a" }, { timestamp: 1, rank: 6, msgId: "z" }),
    ).toBeGreaterThan(0);
    expect(
      comparePrecedence({ timestamp: 1, rank: 4, msgId: "a" }, { timestamp: 1, rank: 2, msgId: "z" }),
    ).toBeGreaterThan(0);
    expect(
      comparePrecedence({ timestamp: 1, rank: 4, msgId: "b" }, { timestamp: 1, rank: 4, msgId: "a" }),
    ).toBeGreaterThan(0);
  });

  it("keeps only Rejected errors: an Approved response with a stale ErrStatus records no error", () => {
    const m = decodeMessage(
      JSON.stringify({
        header: { msg_id: "m", timestamp: 1 },
        route: {},
        content: {
          ID: "a",
          Status: "Approved",
          Error: { ErrStatus: { code: 404, reason: "NotFound", message: "old" } },
        },
      }),
    );
    const u = toUpdate(m, m.applications[0] as NonNullable<(typeof m.applications)[0]>);
    expect(u.errorCode).toBeUndefined();
    const r = decodeMessage(
      JSON.stringify({
        header: { msg_id: "m", timestamp: 1 },
        route: {},
        content: {
          ID: "a",
          Status: "Rejected",
          Reason: "get current list error: boom",
          Error: { ErrStatus: { metadata: {} } },
        },
      }),
    );
    expect(toUpdate(r, r.applications[0] as NonNullable<(typeof r.applications)[0]>)).toMatchObject({
      errorMessage: "get current list error: boom",
    });
  });
});

describe("coalesce", () => {
  it("folds a batch to one update per ID, counting duplicates and stale ones", () => {
    const batch = [
      update("a", "InApplying", 1, "m1"),
      update("a", "Approved", 2, "m2"),
      update("a", "Approved", 2, "m2"),
      update("b", "InApplying", 5, "m3"),
    ];
    const out = coalesce(batch);
    expect(out.updates.map((u) => [u.id, u.status, u.msgIds])).toEqual([
      ["a", "Approved", ["m1", "m2"]],
      ["b", "InApplying", ["m3"]],
    ]);
    expect([out.duplicates, out.stale]).toEqual([1, 1]);
  });

  it("picks the same winner for any order and duplication of the messages (property)", () => {
    const msg = fc.record({
      id: fc.constantFrom("a", "b", "c"),
      status: fc.constantFrom(
        "PreApplying",
        "InApplying",
        "InProcessing",
        "Approved",
        "Rejected",
        "Failed",
        "Completed",
      ),
      timestamp: fc.integer({ min: 0, max: 5 }),
      msgId: fc.uuid(),
    });
    fc.assert(
      fc.property(
        fc.array(msg, { minLength: 1, maxLength: 25 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.integer(),
        (msgs, dupIdx, seed) => {
          const updates = msgs.map((m) => update(m.id, m.status, m.timestamp, m.msgId));
          const dups = dupIdx.map((i) => updates[i % updates.length] as StatusUpdate);
          const shuffled = [...updates, ...dups]
            .map((u, i) => ({ u, k: Math.sin(seed + i) }))
            .sort((x, y) => x.k - y.k)
            .map((x) => x.u);
          const winners = (us: StatusUpdate[]) =>
            Object.fromEntries(
              coalesce(us).updates.map((u) => [u.id, { status: u.status, msgId: u.msgId, ids: u.msgIds }]),
            );
          expect(winners(shuffled)).toEqual(winners(updates));
        },
      ),
      { numRuns: 300 },
    );
  });
});
