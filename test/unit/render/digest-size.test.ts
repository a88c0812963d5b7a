import type { DigestContext, DigestMessage, Transition } from "@fleet-auditor/audit";
import { snsEntry } from "@fleet-auditor/notify";
import { byteSize, SNS_MESSAGE_LIMIT } from "@fleet-auditor/notify/sns-envelope";
import { renderDigests } from "@fleet-auditor/render";
import { describe, expect, it } from "vitest";
import { entryBytes, refusal } from "../../helpers/sns-rules.ts";
import { ctx, t } from "../../helpers/transitions.ts";

// SNS counts "all parts of the message attribute, including name, type, and value" against its
// 256 KiB. Digests are fitted to the byte, so a size that leaves out the types lets a large one
// through the renderer and into SNS's refusal, run after run.

const MARGIN = 1024;
const long: DigestContext = {
  ...ctx,
  landscape: "l".repeat(40),
  runId: `run-${"7".repeat(96)}`,
  report: { stored: true, command: `fleet-auditor runs show run-${"7".repeat(96)}` },
};
const recovery = (n: number): Transition[] => Array.from({ length: n }, (_, i) => t(i, "resolved"));
const body = (m: Pick<DigestMessage, "message">) =>
  JSON.parse(m.message) as { default: string; email: string; https: string };

describe("the size of a publish", () => {
  it("is counted as AWS counts it: the body, the subject, and each attribute's name, data type and value", () => {
    const [m] = renderDigests(ctx, [t(1), t(2, "resolved")]) as [DigestMessage];
    const attributes =
      "audit".length +
      "String".length +
      "failing".length +
      "severity".length +
      "String".length +
      "critical".length +
      "kinds".length +
      "String.Array".length +
      JSON.stringify(["firing", "resolved"]).length +
      "format".length +
      "String".length +
      "digest".length;
    expect(byteSize(m)).toBe(Buffer.byteLength(m.message) + Buffer.byteLength(m.subject) + attributes);
    // And that is what the SNS publisher sends.
    expect(byteSize(m)).toBe(entryBytes(snsEntry(m)));
  });

  it("keeps a mass recovery of 3,000 runtimes, with a long landscape and run ID, 1 KiB under SNS's limit", () => {
    const all = recovery(3_000);
    const messages = renderDigests(long, all);
    expect(messages).toHaveLength(1);
    const [m] = messages as [DigestMessage];
    expect(refusal(snsEntry(m))).toBeUndefined();
    expect(entryBytes(snsEntry(m))).toBeLessThanOrEqual(SNS_MESSAGE_LIMIT - MARGIN);
    // It is fitted, not emptied: its structured digest names hundreds (each with its labels);
    // every transition is told.
    expect((JSON.parse(body(m).default) as { transitions: unknown[] }).transitions.length).toBeGreaterThan(
      200,
    );
    expect(new Set([...m.transitions, ...m.omitted]).size).toBe(all.length);
  });
});

describe("the short form of a digest", () => {
  it("counts every transition, names none, points to the report, and is a few KB", () => {
    const all = recovery(3_000);
    const [m] = renderDigests(long, all) as [DigestMessage];
    const short = m.short as NonNullable<DigestMessage["short"]>;
    expect(short.transitions).toEqual([]);
    expect(short.omitted).toHaveLength(all.length);
    expect(byteSize(short)).toBeLessThan(16 * 1024);
    expect(refusal(snsEntry(short))).toBeUndefined();
    expect(short.subject).toBe(`failed (err_keb_timeout) +2 more: 3,000 recovered | ${"l".repeat(40)}`);
    const parts = body(short);
    expect(parts.email).toContain(long.report.command);
    expect(parts.email).toContain("names none of the 3000 transitions (3000 resolved)");
    expect(parts.email).not.toContain(all[0]?.key);
    const structured = JSON.parse(parts.default) as {
      transitions: unknown[];
      omitted: number;
      groups: unknown[];
    };
    expect(structured).toMatchObject({ transitions: [], omitted: 3_000, groups: [] });
    const chatbot = JSON.parse(parts.https) as {
      content: { description: string };
      metadata: { threadId: string };
    };
    expect(chatbot.content.description).toMatch(/names none of the 3000 transitions/);
    expect(chatbot.metadata.threadId).toBe(JSON.parse(body(m).https).metadata.threadId);
  });

  it("is the digest when even the full one's groups would not fit (thousands of distinct reasons)", () => {
    const all = Array.from({ length: 3_000 }, (_, i) =>
      t(i, "firing", { reason: `err_${i}_${"r".repeat(60)}` }),
    );
    const messages = renderDigests(long, all);
    expect(messages).toHaveLength(1);
    const [m] = messages as [DigestMessage];
    expect(refusal(snsEntry(m))).toBeUndefined();
    expect(m.transitions).toEqual([]);
    expect(m.omitted).toHaveLength(all.length);
    expect(body(m).email).toContain("names none of the 3000 transitions (3000 firing)");
  });

  it("carries the line of findings left out, told once in whichever form goes out", () => {
    const leftOut = { count: 1, first: [{ key: "inst-huge", reason: "a field too large to store" }] };
    const [m] = renderDigests({ ...ctx, leftOut }, [t(1)]) as [DigestMessage];
    expect(body(m.short as DigestMessage).email).toMatch(/^Left out: 1 flagged finding .*"inst-huge"/m);
    const [alone] = renderDigests({ ...ctx, leftOut }, []) as [DigestMessage];
    expect(body(alone.short as DigestMessage).email).toContain("the summary of a digest too large for SNS");
  });
});
