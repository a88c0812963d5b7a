import type { RunSummary } from "@fleet-auditor/audit";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { useDynamo } from "../helpers/dynamo.ts";
import { useFaultProxy } from "../helpers/fault-proxy.ts";
import { useKebSimulator } from "../helpers/keb.ts";
import { emulatorEnv, fakeContext, recentHour, withEnv } from "../helpers/lambda.ts";
import { type Delivered, useSns } from "../helpers/sns.ts";

// The route that matters most does not rest on filter policies. Critical digests also
// go to a Critical topic that a pager subscribes to without a filter; both must take a digest
// for it to count as told.

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

describe("the Critical topic", () => {
  it("gets every critical digest and nothing else; a copy it refuses is sent again, to both", async () => {
    const handler = await coldStart();
    const first = await handler({ audit: "failing", scheduledTime: sched(0) }, fakeContext());
    expect(first.notified).toMatchObject({ messages: 1, failed: 0 });
    const [alerted] = await alerts();
    const [paged] = await pager();
    expect(alerted?.MessageAttributes?.severity?.Value).toBe("critical");
    expect(paged?.Subject).toBe(alerted?.Subject);
    expect(await pager()).toEqual([]);

    // Failed updates (KEB shows `error`: warning) and resolutions (info): the pager hears nothing.
    kit.sim.fleet.mutate({ recover: 3, fail: 2 });
    await handler({ audit: "failing", scheduledTime: sched(1) }, fakeContext());
    expect((await alerts()).map((d) => d.MessageAttributes?.severity?.Value)).toEqual(["warning"]);
    expect(await pager()).toEqual([]);

    // The pager's copy refused: not told, not committed; the retry sends it to both.
    for (const c of kit.sim.fleet.create(2)) kit.sim.fleet.fail(c.instanceID, "provision");
    snsProxy.proxy.add({
      operation: "Publish",
      times: 10,
      bodyIncludes: `TopicArn=${encodeURIComponent(criticalArn)}`,
      action: { kind: "error", status: 500, code: "InternalError", message: "pager topic down" },
    });
    const refused = await handler({ audit: "failing", scheduledTime: sched(2) }, fakeContext());
    expect(refused.notified.failed).toBeGreaterThan(0);
    expect(refused.notified.error).toMatch(/pager topic down/);
    expect(refused.writes).toEqual({ snapshot: 0, deleted: 0 });
    expect(await alerts()).toHaveLength(1);
    expect(await pager()).toEqual([]);
    snsProxy.proxy.clear();
    const retry = await handler({ audit: "failing", scheduledTime: sched(2) }, fakeContext());
    expect(retry.notified).toMatchObject({ messages: 1, failed: 0 });
    expect(await alerts()).toHaveLength(1);
    expect(await pager()).toHaveLength(1);
  });
});
