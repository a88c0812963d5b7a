import type { RunSummary } from "@fleet-auditor/audit";
import { HealthV1Schema } from "@fleet-auditor/render";
import { RunSummarySchema } from "@fleet-auditor/use-cases";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { useDynamo } from "../helpers/dynamo.ts";
import { useFakeSecretsManager } from "../helpers/fake-secrets-manager.ts";
import { useKebSimulator } from "../helpers/keb.ts";
import { emulatorEnv, fakeContext, recentHour, withEnv } from "../helpers/lambda.ts";
import { type Delivered, useSns } from "../helpers/sns.ts";

// A stage's first day as deployed: the stack creates the KEB client secret without a value, the
// schedules run before anyone puts one. Each of those runs says "not configured yet" in its
// result, Ops hears it once, nothing throws (an Errors alarm every 15 minutes) and no metric makes
// NotRunning fire; the first run after the value is put is the audit's baseline.

const client = { id: "auditor", secret: "put-later", groups: ["runtimeViewer"] };
const kit = useKebSimulator({ fleet: { size: 300, seed: 9, flagged: 120 }, auth: { clients: [client] } });
const dynamo = useDynamo(["nc-audit"]);
const sns = useSns();
const stand = useFakeSecretsManager();
const ARN = "arn:aws:secretsmanager:us-east-1:123456789012:secret:fleet-auditor/test/KebClientSecret-NcX123";
let drain: () => Promise<Delivered[]>;
let restore: () => void = () => undefined;
beforeAll(async () => {
  drain = await sns.subscriber("nc-all");
});
afterEach(() => restore());

async function auditHandler() {
  restore = withEnv({
    KEB_URL: kit.sim.url,
    KEB_TOKEN_URL: kit.sim.tokenUrl,
    KEB_CLIENT_ID: "auditor",
    KEB_CLIENT_SECRET: undefined,
    KEB_CLIENT_SECRET_ARN: ARN,
    AUDIT_TABLE: "nc-audit",
    ALERT_TOPIC_ARN: sns.topicArn,
    FIRST_RUN: "baseline",
    ...emulatorEnv({ dynamodb: dynamo.db.endpoint, sns: `http://127.0.0.1:${sns.server.port}` }),
    AWS_ENDPOINT_URL_SECRETS_MANAGER: stand.sm.url,
    POWERTOOLS_METRICS_DISABLED: "false",
  });
  vi.resetModules();
  return (await import("../../functions/audit.ts")).handler;
}

/** Runs `fn` and returns the JSON it wrote to stdout (the function's EMF metrics), parsed. */
async function stdoutOf<T>(fn: () => Promise<T>): Promise<{ result: T; lines: Record<string, unknown>[] }> {
  const out: string[] = [];
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    out.push(String(chunk));
    return true;
  });
  try {
    const result = await fn();
    const lines = out
      .flatMap((c) => c.split("\n"))
      .map((l) => l.trim())
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    return { result, lines };
  } finally {
    spy.mockRestore();
  }
}

const notices = (delivered: Delivered[]) =>
  delivered.map((d) =>
    HealthV1Schema.parse(JSON.parse((JSON.parse(d.Message) as { default: string }).default)),
  );

describe("the audit function before its KEB client secret has a value", () => {
  it("returns not-configured naming the variable, tells once, throws nothing and records no Runs metric", async () => {
    // (Its one warning per run is held by test/unit/use-cases/not-configured.test.ts, on a logger of its own.)
    stand.sm.put(ARN, undefined);
    const handler = await auditHandler();
    const runs: RunSummary[] = [];
    const logged: Record<string, unknown>[][] = [];
    for (const k of [0, 1, 2]) {
      const { result, lines } = await stdoutOf(
        () =>
          handler({ audit: "failing", scheduledTime: recentHour(k) }, fakeContext()) as Promise<RunSummary>,
      );
      runs.push(result);
      logged.push(lines);
    }
    for (const [i, run] of runs.entries()) {
      expect(RunSummarySchema.parse(run)).toEqual(run);
      expect(run).toMatchObject({ status: "not-configured", complete: false, flagged: 0 });
      expect(run.incompleteReason).toContain("KEB_CLIENT_SECRET_ARN");
      expect(run.incompleteReason).toContain("fleet-auditor/test/KebClientSecret");
      // No EMF document with Runs: NotRunning stays where a fresh deploy left it.
      expect((logged[i] ?? []).filter((l) => "_aws" in l && "Runs" in l)).toEqual([]);
    }
    const told = await drain();
    expect(told).toHaveLength(1);
    expect(told[0]?.Subject).toContain("failing audit not configured yet");
    const [notice] = notices(told);
    expect(notice).toMatchObject({ status: "not-configured", audit: "failing", runId: runs[0]?.runId });
    expect(notice?.reason).toContain("KEB_CLIENT_SECRET_ARN");
  });

  it("starts with the first scheduled run after the value is put, which records the backlog as the baseline", async () => {
    stand.sm.put(ARN, undefined);
    const handler = await auditHandler();
    await handler({ audit: "expired", scheduledTime: recentHour(0) }, fakeContext());
    stand.sm.put(ARN, "put-later");
    const { result: first, lines } = await stdoutOf(
      () => handler({ audit: "expired", scheduledTime: recentHour(1) }, fakeContext()) as Promise<RunSummary>,
    );
    // Where a not-configured run records no Runs, a configured one does (the capture works).
    expect(lines.filter((l) => "_aws" in l && l.Runs === 1)).toHaveLength(1);
    expect(first).toMatchObject({ status: "completed", complete: true, baseline: true });
    expect(first.flagged).toBeGreaterThan(0);
    const next = (await handler(
      { audit: "expired", scheduledTime: recentHour(2) },
      fakeContext(),
    )) as RunSummary;
    expect(next.transitions).toEqual([]);
    // The not-configured notice and the baseline notice: nothing per finding.
    expect(notices(await drain()).map((n) => n.status)).toEqual(["not-configured", "baseline"]);

    // The episode is over: a secret emptied later is told again.
    stand.sm.put(ARN, undefined);
    vi.resetModules();
    const cold = await auditHandler();
    const again = (await cold(
      { audit: "expired", scheduledTime: recentHour(3) },
      fakeContext(),
    )) as RunSummary;
    expect(again.status).toBe("not-configured");
    expect(notices(await drain()).map((n) => n.status)).toEqual(["not-configured"]);
  });
});
