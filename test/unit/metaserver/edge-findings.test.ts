import {
  DEFAULT_EDGE_THRESHOLDS,
  refusingNodes,
  stuckApplications,
  type WatchedRow,
} from "@fleet-auditor/metaserver";
import { describe, expect, it } from "vitest";

const NOW = new Date(Date.UTC(2026, 10, 30, 12, 0));
const ago = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000).toISOString();

function row(id: string, status: string, minutesAgo: number, extra: Partial<WatchedRow> = {}): WatchedRow {
  return {
    id,
    key: "/core/v1/services/null/null",
    group: "",
    version: "v1",
    resource: "services",
    namespace: "",
    name: "",
    verb: "list",
    subresource: "",
    node: "edge-17",
    status,
    reason: "",
    messageTime: ago(minutesAgo),
    firstSeenAt: ago(minutesAgo + 1),
    ...extra,
  };
}

const forbidden = {
  code: 403,
  reason: "Forbidden",
  message: 'services is forbidden: User "edge" cannot list',
};

describe("stuckApplications", () => {
  it("finds in-flight Applications past the threshold since their latest message, oldest first", () => {
    const rows = [
      row("a", "InApplying", 11),
      row("b", "PreApplying", 30),
      row("c", "InProcessing", 9.9),
      row("d", "InApplying", 10),
      row("e", "Rejected", 60),
      row("f", "SomethingNew", 60),
    ];
    const stuck = stuckApplications(rows, NOW, DEFAULT_EDGE_THRESHOLDS);
    expect(stuck.map((s) => s.id)).toEqual(["b", "a"]);
    expect(stuck[0]).toMatchObject({ node: "edge-17", verb: "list", status: "PreApplying", since: ago(30) });
  });

  it("follows STUCK_AFTER_MINUTES", () => {
    const rows = [row("a", "InApplying", 3)];
    expect(stuckApplications(rows, NOW, { ...DEFAULT_EDGE_THRESHOLDS, stuckAfterMinutes: 2 })).toHaveLength(
      1,
    );
    expect(stuckApplications(rows, NOW, DEFAULT_EDGE_THRESHOLDS)).toHaveLength(0);
  });
});

describe("refusingNodes", () => {
  it("tells one finding per (node, reason, code) once the node's refusals reach the burst in the window", () => {
    const rows = [
      ...Array.from({ length: 4 }, (_, i) => row(`f${i}`, "Rejected", 1 + i, { error: forbidden })),
      row("n1", "Failed", 2, {
        verb: "get",
        resource: "configmaps",
        error: { code: 404, reason: "NotFound" },
      }),
      // Outside the window: not counted.
      row("old", "Rejected", 16, { error: forbidden }),
      // Another node below the burst.
      ...Array.from({ length: 4 }, (_, i) =>
        row(`o${i}`, "Rejected", 1, { node: "edge-2", error: forbidden }),
      ),
      // Not a refusal.
      row("ok", "InApplying", 1),
    ];
    const found = refusingNodes(rows, NOW, DEFAULT_EDGE_THRESHOLDS);
    expect(found).toEqual([
      {
        node: "edge-17",
        reason: "Forbidden",
        code: 403,
        count: 4,
        requests: ["list services"],
        keys: ["/core/v1/services/null/null"],
        firstAt: ago(4),
        lastAt: ago(1),
      },
      expect.objectContaining({
        node: "edge-17",
        reason: "NotFound",
        code: 404,
        count: 1,
        requests: ["get configmaps"],
      }),
    ]);
  });

  it("is quiet below the burst, and counts a list refusal with only a Reason under that reason", () => {
    const four = Array.from({ length: 4 }, (_, i) =>
      row(`r${i}`, "Rejected", 1, { reason: "too many watches" }),
    );
    expect(refusingNodes(four, NOW, DEFAULT_EDGE_THRESHOLDS)).toEqual([]);
    const five = [...four, row("r4", "Rejected", 1, { reason: "too many watches" })];
    expect(refusingNodes(five, NOW, DEFAULT_EDGE_THRESHOLDS)).toEqual([
      expect.objectContaining({ reason: "too many watches", code: 0, count: 5 }),
    ]);
    expect(refusingNodes(five, NOW, { ...DEFAULT_EDGE_THRESHOLDS, rejectedBurst: 6 })).toEqual([]);
  });
});
