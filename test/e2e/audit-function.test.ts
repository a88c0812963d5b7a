import type { RunSummary } from "@fleet-auditor/audit";
import type { RunView } from "@fleet-auditor/use-cases";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { useDynamo } from "../helpers/dynamo.ts";
import { useKebSimulator } from "../helpers/keb.ts";
import { fakeContext, withEnv } from "../helpers/lambda.ts";
import { useSns } from "../helpers/sns.ts";

const kit = useKebSimulator({
  fleet: { size: 400, seed: 31, flagged: 40 },
  auth: { clients: [{ id: "auditor", secret: "fn-secret", groups: ["runtimeViewer"] }] },
});
const env = useDynamo(["fn-audit"]);
const sns = useSns();
let drain: () => Promise<unknown[]>;
// A scheduled time near the clock: a run that writes refuses one days away from it.
const SCHEDULED = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString();
let restore: () => void = () => undefined;

const baseEnv = (): Record<string, string | undefined> => ({
  KEB_URL: kit.sim.url,
  KEB_TOKEN_URL: kit.sim.tokenUrl,
  KEB_CLIENT_ID: "auditor",
  KEB_CLIENT_SECRET: "fn-secret",
  AUDIT_TABLE: "fn-audit",
  ALERT_TOPIC_ARN: sns.topicArn,
  AWS_REGION: "us-east-1",
  AWS_ACCESS_KEY_ID: "test",
  AWS_SECRET_ACCESS_KEY: "test",
  AWS_ENDPOINT_URL_DYNAMODB: env.db.endpoint,
  AWS_ENDPOINT_URL_SNS: `http://127.0.0.1:${sns.server.port}`,
  POWERTOOLS_LOG_LEVEL: "WARN",
  POWERTOOLS_METRICS_DISABLED: "true",
});

async function loadHandler(vars: Record<string, string | undefined>) {
  restore = withEnv(vars);
  vi.resetModules();
  return (await import("../../functions/audit.ts")).handler;
}

beforeAll(async () => {
  drain = await sns.subscriber("fn-all");
});
afterEach(() => restore());

describe("functions/audit.ts", () => {
  it("runs a scheduled audit and returns the run summary, publishing one digest", async () => {
    const out: string[] = [];
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      out.push(String(chunk));
      return true;
    });
    const handler = await loadHandler({ ...baseEnv(), POWERTOOLS_METRICS_DISABLED: "false" });
    const summary = (await handler(
      { audit: "failing", scheduledTime: SCHEDULED },
      fakeContext(),
    )) as RunSummary;
    const firstRun = out.length;
    const again = (await handler(
      { audit: "failing", scheduledTime: SCHEDULED },
      fakeContext(),
    )) as RunSummary;
    spy.mockRestore();
    // The duplicate (a retried schedule) counts itself, never again the figures of the run it repeats.
    const emfOf = (lines: string[]) =>
      lines
        .map((l) => l.trim())
        .filter((l) => l.startsWith("{") && l.includes("_aws"))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    const duplicateEmf = emfOf(out.slice(firstRun));
    expect(duplicateEmf.some((m) => m.Runs === 0)).toBe(true);
    expect(duplicateEmf.some((m) => "Flagged" in m || m.Runs === 1)).toBe(false);
    expect(emfOf(out.slice(0, firstRun)).some((m) => m.Runs === 1)).toBe(true);
    expect(summary).toMatchObject({
      audit: "failing",
      status: "completed",
      complete: true,
      scheduledTime: SCHEDULED,
    });
    expect(summary.transitions.length).toBeGreaterThan(0);
    expect(await drain()).toHaveLength(1);
    // EMF metrics went to stdout.
    const emf = out
      .map((l) => l.trim())
      .filter((l) => l.startsWith("{") && l.includes("_aws"))
      .map((l) => JSON.parse(l));
    expect(emf.some((m) => m.Flagged === summary.flagged && m.audit === "failing")).toBe(true);
    expect(again.status).toBe("duplicate");
    expect(await drain()).toHaveLength(0);
    // { "show": RUN_ID } from the console: that run's report, every transition with its details.
    const shown = (await handler({ show: summary.runId }, fakeContext())) as RunView;
    expect(shown).toMatchObject({ runId: summary.runId, audit: "failing", source: "report" });
    expect(shown.transitions).toHaveLength(summary.transitions.length);
    expect(shown.transitions[0]).toHaveProperty("finding.labels.shoot");
    expect(await handler({ show: "no-such-run" }, fakeContext())).toBeNull();
  });

  it("runs a console test event without scheduledTime at once, and a dry run writes nothing", async () => {
    const handler = await loadHandler(baseEnv());
    const dry = await handler({ audit: "expired", dryRun: true }, fakeContext());
    expect(dry).toMatchObject({ audit: "expired", dryRun: true, scheduledTime: null });
    expect(await drain()).toHaveLength(0);
  });

  it("rejects a bad payload with an error listing the bad fields", async () => {
    const handler = await loadHandler(baseEnv());
    await expect(handler({ audit: "failing", dryRun: "yes", extra: 1 }, fakeContext())).rejects.toThrow(
      /invalid input: dryRun: .*; \(input\): Unrecognized key: "extra"/,
    );
  });

  it("fails at cold start naming a missing or invalid variable, without echoing secrets", async () => {
    await expect(loadHandler({ ...baseEnv(), AUDIT_TABLE: undefined })).rejects.toThrow(
      /AUDIT_TABLE: is required/,
    );
    await expect(loadHandler({ ...baseEnv(), ALERT_TOPIC_ARN: "topic" })).rejects.toThrow(
      /ALERT_TOPIC_ARN: expected an SNS topic ARN/,
    );
    const err = await loadHandler({ ...baseEnv(), KEB_CLIENT_SECRET: undefined }).catch((e: unknown) => e);
    expect(String(err)).toMatch(/KEB_CLIENT_SECRET: KEB_TOKEN_URL needs KEB_CLIENT_SECRET/);
    // The secret itself is the invalid value: where a value would be echoed if any were.
    for (const [variable, value] of [
      ["KEB_CLIENT_SECRET", "fn-secret\n"],
      ["KEB_CLIENT_SECRET", " fn-secret"],
      ["KEB_PASSWORD", "fn-secret\r\n"],
      ["FIRE_AFTER_RUNS", "fn-secret"],
    ] as const) {
      const vars = {
        ...baseEnv(),
        [variable]: value,
        ...(variable === "KEB_PASSWORD" ? { KEB_USERNAME: "u" } : {}),
      };
      const bad = await loadHandler(vars).catch((e: unknown) => e);
      expect(String(bad)).toMatch(new RegExp(`invalid configuration: ${variable}: `));
      expect(String(bad)).not.toContain("fn-secret");
      expect(JSON.stringify(bad)).not.toContain("fn-secret");
      restore();
    }
  });

  it("ends a run over a slow KEB incomplete before the function's timeout, and still returns its summary", async () => {
    const handler = await loadHandler(baseEnv());
    kit.sim.faults.latencyMs = 700;
    try {
      // 2 s left: the run reads for half of it (the margin is larger than the time left).
      const context = { ...fakeContext(), getRemainingTimeInMillis: () => 2_000 };
      const summary = (await handler({ audit: "failing" }, context)) as RunSummary;
      expect(summary.complete).toBe(false);
      expect(summary.incompleteCode).toBe("KEB_DEADLINE");
      expect(summary.health?.badRuns).toBeGreaterThanOrEqual(1);
    } finally {
      kit.sim.faults.latencyMs = 0;
    }
  });
});
