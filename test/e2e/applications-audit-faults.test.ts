import type { RunSummary } from "@fleet-auditor/audit";
import { decodeMessage, toUpdate } from "@fleet-auditor/metaserver";
import {
  auditTableDefinition,
  DynamoStatusStore,
  ensureTable,
  statusTableDefinition,
} from "@fleet-auditor/store";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { useDynamo } from "../helpers/dynamo.ts";
import { type FaultRule, useFaultProxy } from "../helpers/fault-proxy.ts";
import { emulatorEnv, fakeContext, withEnv } from "../helpers/lambda.ts";
import { type Delivered, useSns } from "../helpers/sns.ts";

// The applications audit function under faults on the wire (a proxy in front of dynalite): the
// SDK's retries absorb a transient throttle of the watched index; a throttle that outlasts them
// makes the run incomplete, and an incomplete run resolves nothing.

const dynamo = useDynamo([]);
const sns = useSns();
const ddbProxy = useFaultProxy(() => dynamo.db.endpoint);
let drain: () => Promise<Delivered[]>;
let restore: () => void = () => undefined;

const MINUTE = 60_000;
// Scheduled times near the clock: a run that writes refuses times far from it.
const BASE = Math.floor(Date.now() / MINUTE) * MINUTE;
const sched = (minutes: number): string => new Date(BASE + minutes * MINUTE).toISOString();

beforeAll(async () => {
  await ensureTable(dynamo.db.client, auditTableDefinition("edge-faults-audit"));
  await ensureTable(dynamo.db.client, statusTableDefinition("edge-faults-status"));
  drain = await sns.subscriber("edge-faults");
});
afterEach(() => {
  restore();
  ddbProxy.proxy.clear();
});

const status = () => new DynamoStatusStore({ client: dynamo.db.client, tableName: "edge-faults-status" });

/** Writes one Application's status straight into the table, as the queue function would. */
async function application(id: string, appStatus: string, at: number): Promise<void> {
  const m = decodeMessage(
    JSON.stringify({
      header: { msg_id: `${id}-${appStatus}`, timestamp: at },
      route: { resource: "node/edge-42/null" },
      content: { ID: id, Key: "/core/v1/configmaps/default/cfg", Verb: "get", Status: appStatus },
    }),
  );
  await status().apply(
    toUpdate(m, m.applications[0] as NonNullable<(typeof m.applications)[0]>),
    new Date(at),
  );
}

type Handler = (event: unknown, context: unknown) => Promise<RunSummary>;

async function coldStart(): Promise<Handler> {
  restore();
  restore = withEnv({
    AUDIT_TABLE: "edge-faults-audit",
    STATUS_TABLE: "edge-faults-status",
    ALERT_TOPIC_ARN: sns.topicArn,
    ...emulatorEnv({ dynamodb: ddbProxy.proxy.url, sns: `http://127.0.0.1:${sns.server.port}` }),
  });
  vi.resetModules();
  return (await import("../../functions/applications-audit.ts")).handler as Handler;
}

const throttleWatch = (times: number): FaultRule => ({
  operation: "Query",
  times,
  bodyIncludes: "byWatch",
  action: {
    kind: "error",
    status: 400,
    code: "ProvisionedThroughputExceededException",
    message: "Rate exceeded",
  },
});

describe("the applications audit function under injected faults", () => {
  it("absorbs a transient throttle; one that outlasts the retries resolves nothing until a complete read", async () => {
    await application("stuck-cfg", "InApplying", BASE - 30 * MINUTE);
    const handler = await coldStart();

    ddbProxy.proxy.add(throttleWatch(2));
    const first = await handler({ audit: "applications", scheduledTime: sched(0) }, fakeContext());
    expect(first).toMatchObject({ complete: true });
    expect(first.transitions.map((t) => `${t.kind} ${t.instanceID}`)).toEqual(["firing app:stuck-cfg"]);
    expect(ddbProxy.proxy.seen.filter((op) => op === "Query").length).toBeGreaterThan(32);
    expect(await drain()).toHaveLength(1);

    // Answered meanwhile, but the watched index is throttled for longer than the SDK retries.
    await application("stuck-cfg", "Approved", BASE + MINUTE);
    ddbProxy.proxy.add(throttleWatch(500));
    const blind = await handler({ audit: "applications", scheduledTime: sched(5) }, fakeContext());
    expect(blind).toMatchObject({ complete: false, incompleteCode: "STATUS_READ", transitions: [] });
    expect(blind.incompleteReason).toMatch(/reading the status table failed/);
    expect(await drain()).toEqual([]);

    ddbProxy.proxy.clear();
    const healed = await handler({ audit: "applications", scheduledTime: sched(10) }, fakeContext());
    expect(healed.transitions.map((t) => `${t.kind} ${t.instanceID}`)).toEqual(["resolved app:stuck-cfg"]);
    expect(await drain()).toHaveLength(1);
    // Three runs, two of them waiting out the SDK's throttling backoff on 32 segments: seconds on
    // a quiet machine, past the default 20 s on a loaded one (seen in CI beside other work).
  }, 60_000);
});
