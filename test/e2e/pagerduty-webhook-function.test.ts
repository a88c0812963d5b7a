import { pathToFileURL } from "node:url";
import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import type { PagerDutyAction } from "@fleet-auditor/inbound";
import { PagerDutyWebhookEnvSchema, parseConfig } from "@fleet-auditor/use-cases";
import type { LambdaFunctionURLEvent } from "aws-lambda";
import { afterEach, beforeEach, describe, expect, inject, it, vi } from "vitest";
import { pagerDutyWebhookHandler } from "../../functions/lib/pagerduty-webhook-handler.ts";
import { secretsOnFirstRead } from "../../functions/lib/secret-reader.ts";
import { useDynamo } from "../helpers/dynamo.ts";
import {
  PAGERDUTY_SERVICE_ID,
  PAGERDUTY_WEBHOOK_SECRET,
  type PagerDutyDelivery,
  pagerDutyDelivery,
} from "../helpers/fake-pagerduty.ts";
import { useFakeSecretsManager } from "../helpers/fake-secrets-manager.ts";
import { useFaultProxy } from "../helpers/fault-proxy.ts";
import { functionUrlEvent } from "../helpers/function-url-event.ts";
import { emulatorEnv, fakeContext, withEnv } from "../helpers/lambda.ts";

// The PagerDuty webhook function's handler as the function builds it (its middy stack, its
// Powertools logger and metrics, its secret read from Secrets Manager by ARN, on a stand-in), fed
// function URL events as Lambda hands them over, with a core that records what it is asked. Every
// hostile request is answered without the core being called, and counted in `Refused`.

const stand = useFakeSecretsManager();
const ARN =
  "arn:aws:secretsmanager:us-east-1:123456789012:secret:fleet-auditor/test/PagerDutyWebhookSecret-AbC123";
let restore: () => void = () => undefined;
let logs: string[] = [];

beforeEach(() => {
  logs = [];
  const capture = (chunk: unknown): boolean => {
    logs.push(String(chunk));
    return true;
  };
  vi.spyOn(process.stdout, "write").mockImplementation(capture);
  vi.spyOn(process.stderr, "write").mockImplementation(capture);
});
afterEach(() => {
  restore();
  // Whatever a test did, the secret never reached a log line.
  expect(logs.join("")).not.toContain(PAGERDUTY_WEBHOOK_SECRET);
});

type Answer = { statusCode: number; headers: Record<string, string>; body: string };

function coldStart(answers: Array<"applied" | "already" | "unknown"> = [], fails?: Error) {
  restore = withEnv({
    AWS_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: "test",
    AWS_SECRET_ACCESS_KEY: "test",
    AWS_ENDPOINT_URL_SECRETS_MANAGER: stand.sm.url,
    POWERTOOLS_LOG_LEVEL: "INFO",
    POWERTOOLS_METRICS_DISABLED: "false",
  });
  stand.sm.put(ARN, PAGERDUTY_WEBHOOK_SECRET);
  const env = parseConfig(PagerDutyWebhookEnvSchema, {
    PAGERDUTY_WEBHOOK_SECRET_ARN: ARN,
    PAGERDUTY_SERVICE_ID,
    AUDIT_TABLE: "pd-audit",
  });
  const calls: PagerDutyAction[] = [];
  const handler = pagerDutyWebhookHandler({
    env,
    logger: new Logger({ serviceName: "fleet-auditor" }),
    metrics: new Metrics({ namespace: "FleetAuditor", serviceName: "pagerduty-webhook" }),
    act: async (action) => {
      calls.push(action);
      if (fails) throw fails;
      return { outcome: answers.shift() ?? "applied", keys: [action.key] };
    },
    secrets: secretsOnFirstRead(),
  });
  const invoke = async (event: LambdaFunctionURLEvent): Promise<Answer> =>
    (await handler(event, fakeContext("fleet-auditor-pagerduty-webhook"))) as Answer;
  return { invoke, calls };
}

const post = (d: PagerDutyDelivery, base64 = false) => functionUrlEvent(d, { base64 });
/** The `Refused` and `Ignored` counts the invocations printed as EMF. */
function counted(): { Refused: number; Ignored: number } {
  const lines = logs
    .join("")
    .split("\n")
    .filter((l) => l.includes('"_aws"'));
  const sum = (name: string) =>
    lines.map((l) => JSON.parse(l) as Record<string, unknown>).reduce((n, m) => n + Number(m[name] ?? 0), 0);
  return { Refused: sum("Refused"), Ignored: sum("Ignored") };
}

describe("the PagerDuty webhook function", () => {
  it("applies a signed acknowledgement, text or base64, and answers what the core did", async () => {
    const { invoke, calls } = coldStart(["applied", "already"]);
    const readBefore = stand.sm.requests.length;
    const d = pagerDutyDelivery({ incidentKey: "inc-e2e", agent: { id: "PALICE1", summary: "Alice Ünal" } });
    const first = await invoke(post(d));
    expect([first.statusCode, first.headers["content-type"], JSON.parse(first.body)]).toEqual([
      200,
      "application/json",
      { outcome: "applied" },
    ]);
    expect((await invoke(post(d, true))).body).toBe('{"outcome":"already"}');
    expect(calls).toEqual([
      { kind: "acknowledge", key: "inc-e2e", by: "pagerduty:PALICE1 (Alice Ünal)" },
      { kind: "acknowledge", key: "inc-e2e", by: "pagerduty:PALICE1 (Alice Ünal)" },
    ]);
    const text = logs.join("");
    expect(text).toContain('"message":"PagerDuty event applied"');
    expect(text).toContain('"incidentKey":"inc-e2e"');
    // One secret read for both (cached), and nothing counted: no custom metric printed.
    expect(stand.sm.requests.slice(readBefore)).toHaveLength(1);
    expect(counted()).toEqual({ Refused: 0, Ignored: 0 });
  });

  it("refuses every hostile request without calling the core, each counted and logged with its reason", async () => {
    const { invoke, calls } = coldStart();
    const d = pagerDutyDelivery({ incidentKey: "inc-hostile" });
    const { "X-PagerDuty-Signature": signature, ...unsigned } = d.headers;
    const hostile: Array<[LambdaFunctionURLEvent, number, string]> = [
      [post({ ...d, headers: unsigned }), 401, "signature-missing"],
      [
        post({ ...d, headers: { ...d.headers, "X-PagerDuty-Signature": `v1=${"f".repeat(64)}` } }),
        401,
        "signature-mismatch",
      ],
      [post({ ...d, body: pagerDutyDelivery({ incidentKey: "inc-other" }).body }), 401, "signature-mismatch"],
      [post({ ...d, body: `${d.body}${" ".repeat(70_000)}` }), 413, "too-large"],
      [post(pagerDutyDelivery({ occurredAt: new Date(Date.now() - 31 * 60_000) })), 400, "stale"],
      [post(pagerDutyDelivery({ serviceId: "PANOTHER" })), 403, "other-service"],
      [
        functionUrlEvent({ method: "GET", headers: { "X-PagerDuty-Signature": signature as string } }),
        405,
        "method",
      ],
    ];
    for (const [event, status, reason] of hostile) {
      const a = await invoke(event);
      expect([a.statusCode, JSON.parse(a.body)], reason).toEqual([status, { refused: reason }]);
    }
    expect(calls).toEqual([]);
    expect(counted()).toEqual({ Refused: hostile.length, Ignored: 0 });
    const text = logs.join("");
    for (const [, , reason] of hostile) expect(text).toContain(`"reason":"${reason}"`);
    // Nothing a request carried is logged: not its body, not its signature.
    expect(text).not.toContain("inc-hostile");
    expect(text).not.toContain(String(signature).slice(3, 20));
  });

  it("answers 200 to what it does not act on, counting an unknown incident as refused and the rest as ignored", async () => {
    const { invoke, calls } = coldStart(["unknown"]);
    expect((await invoke(post(pagerDutyDelivery({ eventType: "pagey.ping" })))).statusCode).toBe(200);
    expect((await invoke(post(pagerDutyDelivery({ incidentKey: "hlt-degraded" })))).statusCode).toBe(200);
    const unknown = await invoke(post(pagerDutyDelivery({ incidentKey: "inc-unknown-here" })));
    expect([unknown.statusCode, unknown.body]).toEqual([200, '{"outcome":"unknown"}']);
    expect(calls.map((c) => c.key)).toEqual(["inc-unknown-here"]);
    expect(counted()).toEqual({ Refused: 1, Ignored: 2 });
  });

  it("fails the invocation when the core fails, so that the URL answers 5xx and PagerDuty retries", async () => {
    const { invoke, calls } = coldStart([], new Error("ProvisionedThroughputExceededException"));
    await expect(invoke(post(pagerDutyDelivery()))).rejects.toThrow(/ProvisionedThroughput/);
    expect(calls).toHaveLength(1);
  });

  it("refuses a configuration without the secret or the service at cold start, naming the variable, never echoing the secret", async () => {
    const start = async (vars: Record<string, string | undefined>): Promise<string> => {
      restore();
      restore = withEnv({
        PAGERDUTY_WEBHOOK_SECRET: undefined,
        PAGERDUTY_WEBHOOK_SECRET_ARN: undefined,
        PAGERDUTY_SERVICE_ID,
        AUDIT_TABLE: "pd-audit",
        ...vars,
      });
      vi.resetModules();
      return import("../../functions/pagerduty-webhook.ts").then(
        (m) => typeof m.handler,
        (err: unknown) => String(err),
      );
    };
    expect(await start({ PAGERDUTY_WEBHOOK_SECRET_ARN: ARN })).toBe("function");
    expect(await start({})).toMatch(/PAGERDUTY_WEBHOOK_SECRET: is required/);
    expect(await start({ PAGERDUTY_WEBHOOK_SECRET_ARN: ARN, PAGERDUTY_SERVICE_ID: undefined })).toMatch(
      /PAGERDUTY_SERVICE_ID/,
    );
    const pasted = await start({ PAGERDUTY_WEBHOOK_SECRET: `${PAGERDUTY_WEBHOOK_SECRET}\n` });
    expect(pasted).toMatch(/PAGERDUTY_WEBHOOK_SECRET: has a line break/);
    expect(pasted).not.toContain(PAGERDUTY_WEBHOOK_SECRET);
  });
});

describe("the PagerDuty webhook function as bundled", () => {
  const dynamo = useDynamo(["pd-bundle-audit"]);
  // DynamoDB and SNS both behind one recording proxy: whatever the function sends to either is seen.
  const aws = useFaultProxy(() => dynamo.db.endpoint);

  it("refuses each hostile request with nothing sent to the store or a topic, each counted", async () => {
    restore = withEnv({
      ...emulatorEnv({ dynamodb: aws.proxy.url, sns: aws.proxy.url }),
      AWS_ENDPOINT_URL_SECRETS_MANAGER: stand.sm.url,
      POWERTOOLS_LOG_LEVEL: "INFO",
      POWERTOOLS_METRICS_DISABLED: "false",
      PAGERDUTY_WEBHOOK_SECRET_ARN: ARN,
      PAGERDUTY_SERVICE_ID,
      AUDIT_TABLE: "pd-bundle-audit",
      INCIDENT_TOPIC_ARN: "arn:aws:sns:us-east-1:123456789012:pd-incidents",
      CRITICAL_TOPIC_ARN: "arn:aws:sns:us-east-1:123456789012:pd-critical",
    });
    stand.sm.put(ARN, PAGERDUTY_WEBHOOK_SECRET);
    const read = stand.sm.requests.length;
    // The bundle as SST builds it (test/setup/function-bundles.ts), loaded once: one cold start.
    const bundle = pathToFileURL(inject("functionBundles")["pagerduty-webhook"] as string).href;
    const { handler } = (await import(bundle)) as {
      handler: (event: unknown, context: unknown) => Promise<Answer>;
    };
    const d = pagerDutyDelivery({ incidentKey: "inc-bundled" });
    const { "X-PagerDuty-Signature": _, ...unsigned } = d.headers;
    const hostile: Array<[LambdaFunctionURLEvent, number]> = [
      [post({ ...d, headers: unsigned }), 401],
      [post({ ...d, headers: { ...d.headers, "X-PagerDuty-Signature": `v1=${"0".repeat(64)}` } }), 401],
      [post({ ...d, body: d.body.replace("inc-bundled", "inc-bundlee") }), 401],
      [post({ ...d, body: d.body.replace("inc-bundled", "inc-bundlee") }, true), 401],
      [post(pagerDutyDelivery({ secrets: ["forger", "forger-2"] })), 401],
      [post({ ...d, body: `${d.body}${" ".repeat(65_536)}` }), 413],
      [post(pagerDutyDelivery({ occurredAt: new Date(Date.now() - 3_600_000) })), 400],
      [post(pagerDutyDelivery({ serviceId: "PTEAMB1" })), 403],
    ];
    for (const [event, status] of hostile)
      expect((await handler(event, fakeContext("fleet-auditor-pagerduty-webhook"))).statusCode).toBe(status);
    // Nothing but the secret's reads (cached, and once afresh after the first forgery): no
    // table, no topic.
    expect(aws.proxy.seen).toEqual([]);
    expect(stand.sm.requests.slice(read).map((r) => r.operation)).toEqual([
      "GetSecretValue",
      "GetSecretValue",
    ]);
    expect(counted()).toEqual({ Refused: hostile.length, Ignored: 0 });
  });
});
