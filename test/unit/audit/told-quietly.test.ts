import { committable, type DiffResult, type SnapshotEntry, toldQuietly } from "@fleet-auditor/audit";
import { describe, expect, it } from "vitest";
import { AT, t } from "../../helpers/transitions.ts";

// A baseline run tells nobody but remembers every transition as told, so all its writes commit
// and the next run is quiet.

const entry = (i: number): SnapshotEntry => {
  const { key, finding } = t(i);
  return {
    key,
    phase: "firing",
    finding,
    flaggedRuns: 1,
    clearRuns: 0,
    firstSeenAt: AT,
    notifiedAt: null,
    version: 1,
  };
};

const diff = (): DiffResult => {
  const transitions = [t(1), t(2, "resolved"), t(3, "reminder")];
  return {
    transitions,
    changes: [
      { op: "put", entry: entry(1), transition: 0 },
      { op: "delete", key: "instance-00002", transition: 1 },
      { op: "put", entry: entry(3), transition: 2 },
      // A write tied to no transition (a pending finding's count).
      { op: "put", entry: { ...entry(4), phase: "pending" } },
    ],
  };
};

describe("toldQuietly", () => {
  it("counts every transition as told, with no message sent and none refused", () => {
    const d = toldQuietly(diff());
    expect([...d.told]).toEqual([0, 1, 2]);
    expect(d.messages).toBe(0);
    expect(d.refused.size).toBe(0);
    expect(d.quiet).toBe(true);
    expect(d).not.toHaveProperty("error");
  });

  it("lets every write of the run commit", () => {
    const result = diff();
    expect(committable(result, toldQuietly(result))).toEqual(result.changes);
  });

  it("tells nothing of a run without transitions", () => {
    const d = toldQuietly({ transitions: [], changes: [] });
    expect(d.told.size).toBe(0);
    expect(d.quiet).toBe(true);
  });
});
