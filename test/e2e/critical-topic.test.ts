import type { RunSummary } from "@fleet-auditor/audit";
import { DigestV1Schema } from "@fleet-auditor/render";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { useDynamo } from "../helpers/dynamo.ts";
import { useFaultProxy } from "../helpers/fault-proxy.ts";
import { useKebSimulator } from "../helpers/keb.ts";
import { emulatorEnv, fakeContext, recentHour, withEnv } from "../helpers/lambda.ts";
import { type Delivered, useSns } from "../helpers/sns.ts";

// The route that matters most does not rest on filter policies. The Critical topic, which a
// pager subscribes to without a filter, hears each critical incident when it opens and when it
// ends (one message each, never capped) and the auditor's health; every topic must take a
// message for its transitions to count as told.

const kit = useKebSimulator({ fleet: { size: 300, seed: 61, flagged: 30 } });
const dynamo = useDynamo(["critical-route"]);
const sns = useSns();
const snsProxy = useFaultProxy(() => `http://127.0.0.1:${sns.server.port}`);
let criticalArn: string;
let alerts: () => Promise<Delivered[]>;
let pager: () => Promise<Delivered[]>;
let restore: () => void = () => undefined;
const sched = (k: number): string => recentHour(k);

beforeAll(async () => {
  criticalArn = await sns.topic("critical");
  alerts = await sns.subscriber("route-alerts");
  pager = await sns.subscriber("route-pager", undefined, criticalArn);
});
afterEach(() => {
  restore();
  snsProxy.proxy.clear();
});

type Handler = (event: unknown, context: unknown) => Promise<RunSummary>;
async function coldStart(): Promise<Handler> {
  restore = withEnv({
    KEB_URL: kit.sim.url,
    KEB_TOKEN: "route-token",
    AUDIT_TABLE: "critical-route",
    ALERT_TOPIC_ARN: sns.topicArn,
    CRITICAL_TOPIC_ARN: criticalArn,
    ...emulatorEnv({ dynamodb: dynamo.db.endpoint, sns: snsProxy.proxy.url }),
  });
  vi.resetModules();
  return (await import("../../functions/audit.ts")).handler as Handler;
}

const structured = (d: Delivered) =>
  DigestV1Schema.parse(JSON.parse((JSON.parse(d.Message) as { default: string }).default));

describe("the Critical topic", () => {
  it("hears one page per audit episode: opened once, quiet while part recovers, ended with the last; a refused end is sent again", async () => {
    const handler = await coldStart();
    const first = await handler({ audit: "failing", scheduledTime: sched(0) }, fakeContext());
    expect(first.notified.failed).toBe(0);
    const alerted = await alerts();
    expect(alerted.map((d) => d.MessageAttributes?.format?.Value)).toEqual(["digest"]);
    const digest = structured(alerted[0] as Delivered);
    const critical = digest.transitions.filter((t) => t.severity === "critical");
    const chatIncidents = new Set(critical.flatMap((t) => (t.incident ? [t.incident.key] : [])));
    expect(chatIncidents.size).toBeGreaterThan(1);
    // One page for every critical incident of the audit, under a key of its own.
    const opened = (await pager()).map(structured);
    expect(opened.map((m) => m.incident?.status)).toEqual(["firing"]);
    const page = opened[0]?.incident?.key as string;
    expect(chatIncidents.has(page)).toBe(false);
    expect(opened[0]?.severity).toBe("critical");

    // One chat incident's runtimes recover: the page stays open, and the pager hears nothing.
    const [one] = [...chatIncidents];
    const members = critical.filter((t) => t.incident?.key === one).map((t) => t.instanceID);
    for (const id of members) kit.sim.fleet.recover(id);
    await handler({ audit: "failing", scheduledTime: sched(1) }, fakeContext());
    expect(await pager()).toEqual([]);
    await alerts();

    // The rest recover. The end's message is refused first: not told, not committed; the retry
    // sends it again, to each topic.
    const rest = critical.map((t) => t.instanceID).filter((id) => !members.includes(id));
    for (const id of rest) kit.sim.fleet.recover(id);
    for (const operation of ["Publish", "PublishBatch"]) {
      snsProxy.proxy.add({
        operation,
        times: 10,
        bodyIncludes: `TopicArn=${encodeURIComponent(criticalArn)}`,
        action: { kind: "error", status: 500, code: "InternalError", message: "pager topic down" },
      });
    }
    const refused = await handler({ audit: "failing", scheduledTime: sched(2) }, fakeContext());
    expect(refused.notified.failed).toBe(rest.length);
    expect(refused.notified.error).toMatch(/pager topic down/);
    expect(refused.writes).toEqual({ snapshot: 0, deleted: 0 });
    expect(await alerts()).toHaveLength(1);
    expect(await pager()).toEqual([]);
    snsProxy.proxy.clear();
    const retry = await handler({ audit: "failing", scheduledTime: sched(2) }, fakeContext());
    expect(retry.notified.failed).toBe(0);
    expect(retry.writes.deleted).toBe(rest.length);
    const ended = (await pager()).map(structured);
    expect(ended.map((m) => m.incident)).toEqual([
      expect.objectContaining({ key: page, status: "resolved" }),
    ]);
    expect(ended[0]?.transitions.map((t) => t.instanceID).sort()).toEqual([...rest].sort());
    expect((await alerts()).map((d) => d.MessageAttributes?.format?.Value)).toEqual(["digest"]);

    // Nothing new: the pager hears nothing.
    await handler({ audit: "failing", scheduledTime: sched(3) }, fakeContext());
    expect(await pager()).toEqual([]);
  });
});
