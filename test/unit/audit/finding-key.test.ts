import { keepable, keyPart } from "@fleet-auditor/audit";
import { quarantinedFinding, refusedFinding, stuckFinding } from "@fleet-auditor/kubeedge-audit";
import { describe, expect, it } from "vitest";
import { finding } from "../../helpers/findings.ts";

const refusal = (node: string, reason: string) =>
  refusedFinding({
    node,
    reason,
    code: 403,
    count: 5,
    requests: ["list services"],
    keys: ["/core/v1/services/null/null"],
    firstAt: "2026-11-01T12:00:00.000Z",
    lastAt: "2026-11-01T12:05:00.000Z",
  });

const stuck = (id: string, verb = "list") =>
  stuckFinding({
    id,
    node: "edge-1",
    key: "/core/v1/services/null/null",
    verb,
    resource: "services",
    status: "InApplying",
    since: "2026-11-01T12:00:00.000Z",
    firstSeenAt: "2026-11-01T12:00:00.000Z",
  });

const keyBytes = (key: string): number => Buffer.byteLength(`RT#${key}`);

describe("finding keys", () => {
  it("keeps a part that fits exactly as it is", () => {
    expect(keyPart("edge-17", 253)).toBe("edge-17");
    expect(refusal("edge-17", "Forbidden").key).toBe("refusals:edge-17:403:Forbidden");
    expect(stuck("a".repeat(300)).key).toBe(`app:${"a".repeat(300)}`);
    expect(quarantinedFinding("MS_NOT_JSON", 3).key).toBe("quarantine:MS_NOT_JSON");
  });

  it("gives values that differ only past the cut parts of their own, within the bound", () => {
    const a = keyPart(`${"x".repeat(200)}-first`, 200);
    const b = keyPart(`${"x".repeat(200)}-second`, 200);
    expect(a).not.toBe(b);
    expect(a.length).toBeLessThanOrEqual(200);
    expect(keyPart(`${"x".repeat(200)}-first`, 200)).toBe(a);
  });

  it("gives refusals with reasons that differ after 200 characters, or nodes with one 253-character prefix, distinct keys", () => {
    const reason = "r".repeat(200);
    expect(refusal("edge-1", `${reason}a`).key).not.toBe(refusal("edge-1", `${reason}b`).key);
    const node = "n".repeat(253);
    expect(refusal(`${node}-1`, "Forbidden").key).not.toBe(refusal(`${node}-2`, "Forbidden").key);
    expect(stuck(`${"i".repeat(300)}1`).key).not.toBe(stuck(`${"i".repeat(300)}2`).key);
  });

  it("keeps every key within DynamoDB's 1,024-byte sort key, whatever the characters", () => {
    const wide = "界".repeat(5_000);
    const emoji = "😀".repeat(5_000);
    for (const f of [
      refusal(wide, wide),
      refusal(emoji, emoji),
      stuck(wide),
      stuck(emoji),
      quarantinedFinding(wide, 1),
    ])
      expect(keyBytes(f.key)).toBeLessThanOrEqual(1024);
    // A cut never splits a surrogate pair.
    expect(keyPart(emoji, 100)).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it("bounds and one-lines every text of an edge finding where it is built", () => {
    const f = stuck("s-1", `get\n${"v".repeat(250_000)}`);
    expect(JSON.stringify(f).length).toBeLessThan(5_000);
    expect(f.summary).not.toMatch(/[\n\r]/);
    expect(f.labels.verb).not.toMatch(/[\n\r]/);
  });
});

describe("keepable", () => {
  it("leaves out a second finding under a key already taken, before anything is planned", () => {
    const { findings, leftOut } = keepable([finding("a"), finding("b"), finding("a", "error")]);
    expect(findings.map((f) => [f.key, f.labels.state])).toEqual([
      ["a", "failed"],
      ["b", "failed"],
    ]);
    expect(leftOut).toEqual([
      expect.objectContaining({ key: "a", reason: "another finding of this run has the same key" }),
    ]);
  });

  it("leaves out a finding whose key DynamoDB cannot hold, naming why", () => {
    const { findings, leftOut } = keepable([finding(`x${"0".repeat(1_100)}`), finding("b")]);
    expect(findings.map((f) => f.key)).toEqual(["b"]);
    expect(leftOut[0]?.reason).toBe(
      "cannot be stored: its key is 1101 bytes; DynamoDB keys hold at most 1024",
    );
    expect(leftOut[0]?.key).toBe(`x${"0".repeat(99)}…`);
  });
});
