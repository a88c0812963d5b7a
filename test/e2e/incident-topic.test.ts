import type { RunSummary } from "@fleet-auditor/audit";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { useDynamo } from "../helpers/dynamo.ts";
import { useFaultProxy } from "../helpers/fault-proxy.ts";
import { useKebSimulator } from "../helpers/keb.ts";
import { emulatorEnv, fakeContext, recentHour, withEnv } from "../helpers/lambda.ts";
import { type Delivered, useSns } from "../helpers/sns.ts";

// With an incidents topic, the audit function publishes the run's digest to the alert topic as
// before (e-mail subscriptions unchanged) and one message per incident with news to the
// incidents topic, routed by what it is, not by filter policies. A transition is told only when
// every message about it went out: an incident message refused sends it again next run.

const kit = useKebSimulator({ fleet: { size: 300, seed: 73, flagged: 30 } });
const dynamo = useDynamo(["incident-route"]);
const sns = useSns();
const snsProxy = useFaultProxy(() => `http://127.0.0.1:${sns.server.port}`);
let incidentsArn: string;
let alerts: () => Promise<Delivered[]>;
let chat: () => Promise<Delivered[]>;
let restore: () => void = () => undefined;

beforeAll(async () => {
  incidentsArn = await sns.topic("incidents");
  alerts = await sns.subscriber("incident-route-alerts");
  chat = await sns.subscriber("incident-route-chat", undefined, incidentsArn);
});
afterEach(() => {
  restore();
  snsProxy.proxy.clear();
});

type Handler = (event: unknown, context: unknown) => Promise<RunSummary>;
async function coldStart(): Promise<Handler> {
  restore = withEnv({
    KEB_URL: kit.sim.url,
    KEB_TOKEN: "incident-token",
    AUDIT_TABLE: "incident-route",
    ALERT_TOPIC_ARN: sns.topicArn,
    INCIDENT_TOPIC_ARN: incidentsArn,
    LANDSCAPE: "e2e",
    ...emulatorEnv({ dynamodb: dynamo.db.endpoint, sns: snsProxy.proxy.url }),
  });
  vi.resetModules();
  return (await import("../../functions/audit.ts")).handler as Handler;
}

const formatOf = (d: Delivered): string | undefined => d.MessageAttributes?.format?.Value;
const threadOf = (d: Delivered): string =>
  (JSON.parse((JSON.parse(d.Message) as { https: string }).https) as { metadata: { threadId: string } })
    .metadata.threadId;

describe("the incidents topic", () => {
  it("gets one message per incident in its own thread, the alert topic the digest; a refused one is sent again", async () => {
    const handler = await coldStart();
    const first = await handler({ audit: "failing", scheduledTime: recentHour(0) }, fakeContext());
    const digests = await alerts();
    const incidents = await chat();
    expect(digests.map(formatOf)).toEqual(["digest"]);
    expect(incidents.length).toBeGreaterThan(1);
    expect(incidents.every((d) => formatOf(d) === "incident")).toBe(true);
    // At most ten new incidents of their own (the default cap), the rest in one roll-up: each
    // message in a thread of its own, the roll-up's too (its incidents' news follows it there).
    expect(incidents.length).toBeLessThanOrEqual(11);
    const threads = incidents.map(threadOf);
    expect(new Set(threads).size).toBe(incidents.length);
    expect(threads.every((t) => t.startsWith("fleet-auditor:e2e:failing:incident:inc-"))).toBe(true);
    expect(first.notified).toMatchObject({ messages: 1 + incidents.length, failed: 0 });

    // The incidents topic refuses: the digest went out, but what it was about is not told, so
    // nothing is committed and the same scheduled time sends it again, to both.
    for (const c of kit.sim.fleet.create(2)) kit.sim.fleet.fail(c.instanceID, "provision");
    for (const operation of ["Publish", "PublishBatch"])
      snsProxy.proxy.add({
        operation,
        times: 100,
        bodyIncludes: `TopicArn=${encodeURIComponent(incidentsArn)}`,
        action: { kind: "error", status: 500, code: "InternalError", message: "incidents topic down" },
      });
    const refused = await handler({ audit: "failing", scheduledTime: recentHour(1) }, fakeContext());
    expect(refused.notified.failed).toBeGreaterThan(0);
    expect(refused.writes).toEqual({ snapshot: 0, deleted: 0 });
    expect((await alerts()).map(formatOf)).toEqual(["digest"]);
    expect(await chat()).toEqual([]);
    snsProxy.proxy.clear();
    const retry = await handler({ audit: "failing", scheduledTime: recentHour(1) }, fakeContext());
    expect(retry.notified.failed).toBe(0);
    expect((await alerts()).map(formatOf)).toEqual(["digest"]);
    expect((await chat()).length).toBeGreaterThan(0);
  });
});
