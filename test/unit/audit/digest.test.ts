import {
  asciiSubject,
  byteSize,
  MAX_MESSAGES_PER_RUN,
  renderDigests,
  SNS_MESSAGE_LIMIT,
  type Transition,
} from "@fleet-auditor/audit";
import { describe, expect, it } from "vitest";
import { finding } from "../../helpers/findings.ts";

const ctx = {
  audit: "failing",
  runId: "run-1",
  at: "2026-11-01T00:00:00.000Z",
  complete: true,
  incompleteReason: null,
  listed: 500,
  flagged: 3,
};
const t = (
  id: string,
  kind: Transition["kind"] = "firing",
  severity: "critical" | "warning" = "critical",
): Transition => ({
  kind,
  instanceID: id,
  state: "failed",
  previousState: kind === "firing" ? null : "failed",
  severity,
  finding: finding(id, "failed", severity),
});

describe("digests", () => {
  it("render one message with plain text, e-mail and a Chatbot payload, and filterable attributes", () => {
    const [m, ...rest] = renderDigests(ctx, [t("a"), t("b", "resolved", "warning")]);
    expect(rest).toEqual([]);
    const body = JSON.parse(m?.message ?? "{}") as { default: string; email: string; https: string };
    expect(body.default).toContain("NEW (1)");
    expect(body.email).toBe(body.default);
    expect(body.default).toContain("RESOLVED (1)");
    const chatbot: unknown = JSON.parse(body.https);
    expect(chatbot).toMatchObject({
      version: "1.0",
      source: "custom",
      content: { textType: "client-markdown" },
    });
    expect(m?.attributes).toEqual({ audit: "failing", severity: "critical", kinds: ["firing", "resolved"] });
    expect(m?.subject).toBe("[fleet-auditor] CRITICAL failing: 1 firing, 1 resolved");
  });

  it("leave silenced transitions out, and render nothing when nothing notifies", () => {
    expect(renderDigests(ctx, [{ ...t("a"), silencedBy: "s1" }])).toEqual([]);
    expect(renderDigests(ctx, [])).toEqual([]);
  });

  it("keep subjects ASCII, on one line and under 100 characters", () => {
    const s = asciiSubject(`[fleet-auditor] Ärger\r\nmit ${"x".repeat(200)} ✓`);
    expect(s).toMatch(/^[\x20-\x7e]+$/);
    expect(s.length).toBeLessThanOrEqual(99);
    expect(s.startsWith("[fleet-auditor] Arger mit")).toBe(true);
  });

  it("split a digest that exceeds the 256 KiB SNS limit, every message within it", () => {
    const many = Array.from({ length: 1500 }, (_, i) => t(`instance-${String(i).padStart(5, "0")}`));
    const messages = renderDigests(ctx, many);
    expect(messages.length).toBeGreaterThan(1);
    for (const m of messages) expect(byteSize(m)).toBeLessThanOrEqual(SNS_MESSAGE_LIMIT);
    const carried = messages.flatMap((m) => m.transitions);
    expect(new Set(carried).size).toBe(1500);
    expect(messages[1]?.subject).toContain("(part 2)");
  });

  it("end with +N more and a pointer to the run ledger instead of sending too many messages", () => {
    const long = "x".repeat(590);
    const huge = Array.from({ length: 12_000 }, (_, i) => {
      const tr = t(`i-${i}`);
      if (tr.finding.operation) tr.finding.operation.description = long;
      return tr;
    });
    const messages = renderDigests(ctx, huge);
    expect(messages).toHaveLength(MAX_MESSAGES_PER_RUN);
    const last = messages.at(-1);
    expect(last?.omitted.length).toBeGreaterThan(0);
    expect(JSON.parse(last?.message ?? "{}").default).toContain(
      `+${last?.omitted.length} more transitions not shown; see run run-1`,
    );
    for (const m of messages) expect(byteSize(m)).toBeLessThanOrEqual(SNS_MESSAGE_LIMIT);
    const told = [...messages.flatMap((m) => m.transitions), ...(last?.omitted ?? [])];
    expect(new Set(told).size).toBe(12_000);
  });

  it("say when the scan was incomplete", () => {
    const [m] = renderDigests({ ...ctx, complete: false, incompleteReason: "page 3 failed" }, [t("a")]);
    expect(JSON.parse(m?.message ?? "{}").default).toContain(
      "Scan INCOMPLETE (page 3 failed): nothing was resolved",
    );
  });
});
