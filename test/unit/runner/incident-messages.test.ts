import { Fleet, generateFleet } from "@fleet-auditor/keb-sim";
import { runAudit } from "@fleet-auditor/runner";
import { describe, expect, it } from "vitest";
import {
  FleetSource,
  MemoryAuditStore,
  MemoryPublisher,
  MemoryReportStore,
} from "../../helpers/memory-ports.ts";

// With incident messages on, a run publishes its digests and one message per incident with
// news; chat follows incidents in either notify mode, and every message has its own Chatbot id.

const hour = (h: number): Date => new Date(Date.UTC(2026, 11, 1, 8 + h));

async function runWith(notifyMode: "digest" | "per-runtime") {
  const publisher = new MemoryPublisher();
  const summary = await runAudit(
    {
      ports: {
        source: new FleetSource(new Fleet(generateFleet({ size: 200, seed: 11, flagged: 12 }))),
        store: new MemoryAuditStore(),
        publisher,
        reports: new MemoryReportStore(),
      },
      settings: { notifyMode, stormThreshold: 50, incidentMessages: { maxNew: 10 }, landscape: "unit" },
      hooks: { clock: () => hour(0) },
    },
    { audit: "failing", scheduledTime: hour(0).toISOString() },
  );
  const formats = publisher.published.map((m) => m.attributes.format);
  const ids = publisher.published.map((m) => (JSON.parse(JSON.parse(m.message).https) as { id: string }).id);
  return { summary, formats, ids };
}

describe("incident messages in a run", () => {
  it("go out beside the digest, each transition told once every message about it went out", async () => {
    const { summary, formats, ids } = await runWith("digest");
    expect(formats[0]).toBe("digest");
    expect(formats.slice(1).every((f) => f === "incident")).toBe(true);
    expect(formats.length).toBeGreaterThan(1);
    expect(new Set(ids).size).toBe(ids.length);
    expect(summary.notified).toMatchObject({ messages: formats.length, failed: 0 });
    expect(summary.notified.transitions).toBe(summary.transitions.length);
  });

  it("go out in per-runtime mode too: it shapes only the digests", async () => {
    const { summary, formats, ids } = await runWith("per-runtime");
    const perRuntime = formats.filter((f) => f === "digest").length;
    expect(perRuntime).toBe(summary.transitions.length);
    expect(formats.filter((f) => f === "incident").length).toBeGreaterThan(0);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
