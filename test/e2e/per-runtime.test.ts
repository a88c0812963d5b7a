import type { RunSummary } from "@fleet-auditor/audit";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { useDynamo } from "../helpers/dynamo.ts";
import { useFaultProxy } from "../helpers/fault-proxy.ts";
import { useKebSimulator } from "../helpers/keb.ts";
import { emulatorEnv, fakeContext, recentHour, withEnv } from "../helpers/lambda.ts";
import { type Delivered, useSns } from "../helpers/sns.ts";

// NOTIFY_MODE=per-runtime (deprecated) through the real function, on fauxqs: an alias of
// GROUP_BY_<AUDIT>=instance, so each runtime is an incident with its own chat thread, and the
// digest stays one e-mail a run.

const kit = useKebSimulator({ fleet: { size: 120, seed: 71, flagged: 12 } });
const dynamo = useDynamo(["per-runtime"]);
const sns = useSns();
const snsProxy = useFaultProxy(() => `http://127.0.0.1:${sns.server.port}`);
let alerts: () => Promise<Delivered[]>;
let chat: () => Promise<Delivered[]>;
let incidentsArn: string;
let restore: () => void = () => undefined;
const sched = (k: number): string => recentHour(k);

beforeAll(async () => {
  incidentsArn = await sns.topic("per-runtime-incidents");
  alerts = await sns.subscriber("per-runtime");
  chat = await sns.subscriber("per-runtime-chat", undefined, incidentsArn);
});
afterEach(() => {
  restore();
  snsProxy.proxy.clear();
});

type Handler = (event: unknown, context: unknown) => Promise<RunSummary>;
async function coldStart(): Promise<Handler> {
  restore = withEnv({
    KEB_URL: kit.sim.url,
    KEB_TOKEN: "t",
    AUDIT_TABLE: "per-runtime",
    ALERT_TOPIC_ARN: sns.topicArn,
    INCIDENT_TOPIC_ARN: incidentsArn,
    NOTIFY_MODE: "per-runtime",
    MAX_NEW_INCIDENT_MESSAGES: "50",
    ...emulatorEnv({ dynamodb: dynamo.db.endpoint, sns: snsProxy.proxy.url }),
  });
  vi.resetModules();
  return (await import("../../functions/audit.ts")).handler as Handler;
}

const threadOf = (d: Delivered): string =>
  (JSON.parse(JSON.parse(d.Message).https) as { metadata: { threadId: string } }).metadata.threadId;

describe("NOTIFY_MODE=per-runtime", () => {
  it("threads each runtime on its own; a batch SNS refused is sent next run, nothing twice", async () => {
    const handler = await coldStart();
    snsProxy.proxy.add({
      operation: "PublishBatch",
      times: 10,
      bodyIncludes: `TopicArn=${encodeURIComponent(incidentsArn)}`,
      action: { kind: "error", status: 500, code: "InternalError", message: "SNS is down" },
    });
    const refused = await handler({ audit: "failing", scheduledTime: sched(0) }, fakeContext());
    expect(refused.notified.failed).toBe(refused.transitions.length);
    expect(refused.notified.error).toMatch(/SNS is down/);
    await alerts();
    expect(await chat()).toEqual([]);
    snsProxy.proxy.clear();

    const s = await handler({ audit: "failing", scheduledTime: sched(1) }, fakeContext());
    expect(s.transitions.length).toBeGreaterThan(1);
    expect(s.notified).toMatchObject({ messages: 1 + s.transitions.length, failed: 0 });
    expect(await alerts()).toHaveLength(1);
    const delivered = await chat();
    expect(delivered).toHaveLength(s.transitions.length);
    expect(new Set(delivered.map(threadOf)).size).toBe(delivered.length);
    for (const d of delivered) expect(JSON.parse(JSON.parse(d.Message).default).transitions).toHaveLength(1);

    expect((await handler({ audit: "failing", scheduledTime: sched(2) }, fakeContext())).transitions).toEqual(
      [],
    );
    expect(await alerts()).toEqual([]);
    expect(await chat()).toEqual([]);
  });
});
