import type { RunSummary } from "@fleet-auditor/audit";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { useDynamo } from "../helpers/dynamo.ts";
import { useFaultProxy } from "../helpers/fault-proxy.ts";
import { useKebSimulator } from "../helpers/keb.ts";
import { emulatorEnv, fakeContext, recentHour, withEnv } from "../helpers/lambda.ts";
import { type Delivered, useSns } from "../helpers/sns.ts";

// NOTIFY_MODE=per-runtime through the real function, SNS PublishBatch on fauxqs.

const kit = useKebSimulator({ fleet: { size: 120, seed: 71, flagged: 12 } });
const dynamo = useDynamo(["per-runtime", "per-runtime-storm"]);
const sns = useSns();
const snsProxy = useFaultProxy(() => `http://127.0.0.1:${sns.server.port}`);
let drain: () => Promise<Delivered[]>;
let restore: () => void = () => undefined;
const sched = (k: number): string => recentHour(k);

beforeAll(async () => {
  drain = await sns.subscriber("per-runtime");
});
afterEach(() => {
  restore();
  snsProxy.proxy.clear();
});

type Handler = (event: unknown, context: unknown) => Promise<RunSummary>;
async function coldStart(vars: Record<string, string>): Promise<Handler> {
  restore = withEnv({
    KEB_URL: kit.sim.url,
    KEB_TOKEN: "t",
    ALERT_TOPIC_ARN: sns.topicArn,
    NOTIFY_MODE: "per-runtime",
    ...emulatorEnv({ dynamodb: dynamo.db.endpoint, sns: snsProxy.proxy.url }),
    ...vars,
  });
  vi.resetModules();
  return (await import("../../functions/audit.ts")).handler as Handler;
}

const threadOf = (d: Delivered): string =>
  (JSON.parse(JSON.parse(d.Message).https) as { metadata: { threadId: string } }).metadata.threadId;

describe("NOTIFY_MODE=per-runtime", () => {
  it("publishes one message per transition in batches; a batch SNS refused is sent next run, nothing twice", async () => {
    const handler = await coldStart({ AUDIT_TABLE: "per-runtime" });
    snsProxy.proxy.add({
      operation: "PublishBatch",
      times: 10,
      action: { kind: "error", status: 500, code: "InternalError", message: "SNS is down" },
    });
    const refused = await handler({ audit: "failing", scheduledTime: sched(0) }, fakeContext());
    expect(refused.notified.failed).toBe(refused.transitions.length);
    expect(refused.notified.error).toMatch(/SNS is down/);
    expect(await drain()).toEqual([]);
    snsProxy.proxy.clear();
    const before = snsProxy.proxy.seen.length;

    const s = await handler({ audit: "failing", scheduledTime: sched(1) }, fakeContext());
    expect(s.transitions.length).toBeGreaterThan(1);
    expect(s.notified).toMatchObject({ messages: s.transitions.length, failed: 0 });
    const delivered = await drain();
    expect(delivered).toHaveLength(s.transitions.length);
    expect(new Set(delivered.map(threadOf)).size).toBe(delivered.length);
    expect(snsProxy.proxy.seen.slice(before).filter((op) => op === "PublishBatch")).toHaveLength(
      Math.ceil(s.transitions.length / 10),
    );
    for (const d of delivered) expect(JSON.parse(JSON.parse(d.Message).default).transitions).toHaveLength(1);

    expect((await handler({ audit: "failing", scheduledTime: sched(2) }, fakeContext())).transitions).toEqual(
      [],
    );
    expect(await drain()).toEqual([]);
  });

  it("sends one grouped digest above STORM_THRESHOLD", async () => {
    const handler = await coldStart({ AUDIT_TABLE: "per-runtime-storm", STORM_THRESHOLD: "2" });
    const s = await handler({ audit: "failing", scheduledTime: sched(0) }, fakeContext());
    expect(s).toMatchObject({ stormFallback: true, notified: { messages: 1 } });
    expect(await drain()).toHaveLength(1);
  });
});
