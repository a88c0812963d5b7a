import { Fleet, generateFleet } from "@fleet-auditor/keb-kubeedge-sim";
import { applicationsAudit } from "@fleet-auditor/kubeedge-audit";
import {
  AlertingEnvSchema,
  groupByEnvSchema,
  messagingFrom,
  parseConfig,
  runAudit,
} from "@fleet-auditor/use-cases";
import { describe, expect, it } from "vitest";
import {
  FleetSource,
  MemoryAuditStore,
  MemoryPublisher,
  MemoryReportStore,
} from "../../helpers/memory-ports.ts";
import { SHIPPED_AUDITS, testAudits } from "../../helpers/test-audits.ts";

// With incident messages on, a run publishes its digest and one message per incident with news,
// each with its own Chatbot id; the deprecated per-runtime mode makes each runtime an incident.

const hour = (h: number): Date => new Date(Date.UTC(2026, 11, 1, 8 + h));
const alertingEnv = (env: Record<string, string>) =>
  parseConfig(AlertingEnvSchema.and(groupByEnvSchema(SHIPPED_AUDITS)), env);

async function runWith(env: Record<string, string> = {}, maxNew = 10) {
  const publisher = new MemoryPublisher();
  const fleet = new Fleet(generateFleet({ size: 200, seed: 11, flagged: 12 }));
  const deps = {
    ports: {
      audits: testAudits({ client: new FleetSource(fleet), grouping: alertingEnv(env) }),
      store: new MemoryAuditStore(),
      publisher,
      reports: new MemoryReportStore(),
    },
    settings: {
      ...messagingFrom(alertingEnv({ LANDSCAPE: "unit", ...env })),
      incidentMessages: { maxNew },
    },
    hooks: { clock: () => hour(0) },
  };
  const summary = await runAudit(deps, { audit: "failing", scheduledTime: hour(0).toISOString() });
  const formats = publisher.published.map((m) => m.attributes.format);
  const ids = publisher.published.map((m) => (JSON.parse(JSON.parse(m.message).https) as { id: string }).id);
  return { summary, formats, ids, publisher, fleet, deps };
}

const chatbotOf = (m: { message: string } | undefined) =>
  JSON.parse(JSON.parse(m?.message ?? "{}").https) as { metadata: { threadId: string } };

describe("incident messages in a run", () => {
  it("go out beside the digest, each transition told once every message about it went out", async () => {
    const { summary, formats, ids } = await runWith();
    expect(formats[0]).toBe("digest");
    expect(formats.slice(1).every((f) => f === "incident")).toBe(true);
    expect(formats.length).toBeGreaterThan(1);
    expect(new Set(ids).size).toBe(ids.length);
    expect(summary.notified).toMatchObject({ messages: formats.length, failed: 0 });
    expect(summary.notified.transitions).toBe(summary.transitions.length);
  });

  it("follow each runtime under NOTIFY_MODE=per-runtime, an alias of GROUP_BY_<AUDIT>=instance", async () => {
    const { summary, formats, publisher, fleet, deps } = await runWith({ NOTIFY_MODE: "per-runtime" }, 50);
    // One digest on the alert topic; one message per runtime, each its own thread.
    expect(formats.filter((f) => f === "digest")).toHaveLength(1);
    const chat = publisher.published.filter((m) => m.attributes.format === "incident");
    expect(chat).toHaveLength(summary.transitions.length);
    const threads = chat.map((m) => chatbotOf(m).metadata.threadId);
    expect(new Set(threads).size).toBe(threads.length);
    // The runtime's resolution replies in the thread its firing started.
    const first = summary.transitions[0]?.instanceID as string;
    const thread = threads[chat.findIndex((m) => m.message.includes(first))];
    fleet.recover(first);
    const sent = publisher.published.length;
    const next = await runAudit(
      { ...deps, hooks: { clock: () => hour(1) } },
      { audit: "failing", scheduledTime: hour(1).toISOString() },
    );
    expect(next.transitions.map((t) => [t.kind, t.instanceID])).toEqual([["resolved", first]]);
    const replies = publisher.published.slice(sent).filter((m) => m.attributes.format === "incident");
    expect(replies.map((m) => chatbotOf(m).metadata.threadId)).toEqual([thread]);
  });

  it("keep a storm to the cap under per-runtime too: the rest in one roll-up", async () => {
    const { summary, formats } = await runWith({ NOTIFY_MODE: "per-runtime" }, 3);
    expect(summary.transitions.length).toBeGreaterThan(4);
    expect(formats.filter((f) => f === "incident")).toHaveLength(3 + 1);
  });

  it("leave an explicit GROUP_BY_<AUDIT> as it is under NOTIFY_MODE=per-runtime", () => {
    const { audits } = testAudits({
      grouping: alertingEnv({ NOTIFY_MODE: "per-runtime", GROUP_BY_EXPIRED: "region" }),
    });
    expect(Object.fromEntries(audits.map((a) => [a.name, a.groupBy]))).toEqual({
      failing: ["instance"],
      expired: ["region"],
      applications: applicationsAudit.groupBy,
    });
  });
});
