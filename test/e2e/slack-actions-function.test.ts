import { pathToFileURL } from "node:url";
import { SLACK_CLICK_MAX_BYTES } from "@fleet-auditor/use-cases";
import type { Context } from "aws-lambda";
import { afterEach, beforeEach, describe, expect, inject, it, vi } from "vitest";
import { useDynamo } from "../helpers/dynamo.ts";
import { everythingStored } from "../helpers/everything-stored.ts";
import { useFakeSecretsManager } from "../helpers/fake-secrets-manager.ts";
import { useFakeSlackApi } from "../helpers/fake-slack-api.ts";
import { emulatorEnv, fakeContext, withEnv } from "../helpers/lambda.ts";
import { captureOutput } from "../helpers/output.ts";
import {
  blockActions,
  CHANNEL,
  type ClickSpec,
  formBody,
  functionUrlEvent,
  SIGNING_SECRET,
  signedClick,
  TEAM,
} from "../helpers/slack-clicks.ts";
import { useSns } from "../helpers/sns.ts";
import { recordSstConfig } from "../helpers/sst-stand-ins.ts";

// The Slack actions function as deployed: its bundle (as SST builds it), its signing secret read
// from Secrets Manager by ARN (a stand-in), given requests as a Lambda function URL delivers them
// (payload format 2.0, the body as text or base64), signed as Slack signs them. Every hostile
// request is refused with its status before the incident actions core is reached: the audit table
// and the topics are as they were, and the refusal is counted as the stage's alarm watches it.

const dynamo = useDynamo(["sa-audit"]);
const sns = useSns();
const secrets = useFakeSecretsManager();
const fake = useFakeSlackApi();
const bundle = pathToFileURL(inject("functionBundles")["slack-actions"] as string).href;
const SECRET_ARN =
  "arn:aws:secretsmanager:us-east-1:123456789012:secret:fleet-auditor/e2e/SlackSigningSecret-AbC123";
const KEY = "inc-AAAAAAAAAAAAAAAAAAAAAAAA";

type Handler = (event: unknown, context: Context) => Promise<{ statusCode: number; body: string }>;
let restore: () => void = () => undefined;
let logs: string[] = [];

beforeEach(() => {
  secrets.sm.put(SECRET_ARN, SIGNING_SECRET);
  fake.api.reset();
  logs = captureOutput();
});
afterEach(() => restore());

async function coldStart(
  vars: Record<string, string | undefined> = {},
  /** The bundle as deployed, or the source (faster to load, for what only its module scope does). */
  from: "bundle" | "source" = "bundle",
): Promise<Handler> {
  restore();
  restore = withEnv({
    ...emulatorEnv({ dynamodb: dynamo.db.endpoint, sns: `http://127.0.0.1:${sns.server.port}` }),
    AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.sm.url,
    POWERTOOLS_LOG_LEVEL: "INFO",
    POWERTOOLS_METRICS_DISABLED: "false",
    SLACK_SIGNING_SECRET_ARN: SECRET_ARN,
    SLACK_TEAM_ID: TEAM,
    SLACK_CHANNEL: CHANNEL,
    SLACK_RESPONSE_URL_PREFIX: new URL(fake.api.apiUrl).origin,
    AUDIT_TABLE: "sa-audit",
    INCIDENT_TOPIC_ARN: sns.topicArn,
    CRITICAL_TOPIC_ARN: sns.topicArn,
    ...vars,
  });
  vi.resetModules();
  if (from === "source") return (await import("../../functions/slack-actions.ts")).handler as Handler;
  // The bundle, imported afresh: a cold start with these variables.
  return (await import(`${bundle}?cold=${crypto.randomUUID()}`)).handler as Handler;
}

const context = (): Context => ({
  ...fakeContext("fleet-auditor-prod-SlackActions"),
  getRemainingTimeInMillis: () => 10_000,
});
const click = (spec: Partial<ClickSpec> = {}) =>
  blockActions({ responseUrl: fake.api.responseUrl("1764000001.000001"), value: KEY, ...spec });

/** Each EMF line's metrics: `SlackActionRefused {reason=stale, service=slack-actions}`. */
function printed(): string[] {
  return logs
    .join("")
    .split("\n")
    .filter((l) => l.includes('"_aws"'))
    .flatMap((l) => {
      const blob = JSON.parse(l) as Record<string, unknown> & {
        _aws: { CloudWatchMetrics: Array<{ Dimensions: string[][]; Metrics: Array<{ Name: string }> }> };
      };
      return blob._aws.CloudWatchMetrics.flatMap((d) =>
        d.Dimensions.flatMap((set) =>
          d.Metrics.map(
            (m) =>
              `${m.Name} {${[...set]
                .sort()
                .map((k) => `${k}=${String(blob[k])}`)
                .join(", ")}}`,
          ),
        ),
      );
    });
}

describe("functions/slack-actions.ts, bundled, behind its function URL", () => {
  it("refuses every hostile request with its status before anything reaches the core, and counts each as the alarm watches it", async () => {
    const handler = await coldStart();
    const now = Math.floor(Date.now() / 1000);
    const good = click();
    const signed = signedClick(good);
    const hostile: Array<[string, object, number, string]> = [
      [
        "a forged signature",
        functionUrlEvent({
          ...signed,
          headers: { ...signed.headers, "X-Slack-Signature": `v0=${"f".repeat(64)}` },
        }),
        401,
        "bad-signature",
      ],
      [
        "a replay of a click ten minutes old",
        functionUrlEvent(signedClick(good, { at: now - 600 })),
        401,
        "stale",
      ],
      [
        "a click dated ten minutes ahead",
        functionUrlEvent(signedClick(good, { at: now + 600 }), { base64: true }),
        401,
        "stale",
      ],
      [
        "a signature over another body",
        functionUrlEvent({ ...signed, body: formBody(click({ value: "inc-BBBBBBBBBBBBBBBBBBBBBBBB" })) }),
        401,
        "bad-signature",
      ],
      [
        "a v1= scheme",
        functionUrlEvent({
          ...signed,
          headers: { ...signed.headers, "X-Slack-Signature": `v1=${"a".repeat(64)}` },
        }),
        401,
        "unsigned",
      ],
      [
        "a huge body",
        functionUrlEvent(signedClick(good, { body: `payload=${"A".repeat(SLACK_CLICK_MAX_BYTES)}` }), {
          base64: true,
        }),
        413,
        "too-large",
      ],
      ["a GET", functionUrlEvent(signed, { method: "GET" }), 405, "method"],
      [
        "malformed JSON, signed",
        functionUrlEvent(signedClick(good, { body: "payload=%7B%22type%22" })),
        400,
        "malformed",
      ],
      ["two actions", functionUrlEvent(signedClick(click({ moreActions: 1 }))), 400, "malformed"],
      [
        "another team's click",
        functionUrlEvent(signedClick(click({ team: "T0OTHERTEAM" }))),
        403,
        "forbidden",
      ],
      [
        "another channel's click",
        functionUrlEvent(signedClick(click({ channel: "C0OTHERCHAN" }))),
        403,
        "forbidden",
      ],
    ];
    const before = await everythingStored(dynamo.db.client, ["sa-audit"]);
    const published = sns.standIn.accepted.length;
    for (const [what, event, status, reason] of hostile) {
      const answer = await handler(event, context());
      expect({ status: answer.statusCode, body: answer.body }, what).toEqual({ status, body: reason });
    }
    expect(await everythingStored(dynamo.db.client, ["sa-audit"])).toBe(before);
    expect(sns.standIn.accepted).toHaveLength(published);
    expect(fake.api.responses).toEqual([]);
    // Each refusal by its reason, and in all as the stage's SlackActionRefusals alarm watches it.
    const metrics = printed();
    for (const reason of new Set(hostile.map((h) => h[3])))
      expect(metrics).toContain(`SlackActionRefused {reason=${reason}, service=slack-actions}`);
    expect(metrics.filter((m) => m === "SlackActionRefused {service=slack-actions}")).toHaveLength(
      hostile.length,
    );
    const stage = await recordSstConfig("prod", {
      stages: {
        stages: { prod: { slack: { way: "bot", channel: CHANNEL, interactivity: { teamId: TEAM } } } },
      },
    });
    const alarm = stage.named("aws.cloudwatch.MetricAlarm", "SlackActionRefusals").args;
    expect(metrics).toContain(
      `${String(alarm.metricName)} {${Object.entries(alarm.dimensions as object)
        .map(([k, v]) => `${k}=${v}`)
        .join(", ")}}`,
    );
    // Nothing of a request, nor the secret, in the logs: each refusal is a line with its reason.
    const text = logs.join("");
    expect(text).not.toContain(SIGNING_SECRET);
    expect(text).not.toContain("f".repeat(64));
    expect(text).not.toContain(fake.api.apiUrl);
    expect(text.match(/"message":"request refused"/g)).toHaveLength(hostile.length);
  });

  it("refuses at cold start a stage without its signing secret, naming the variable", async () => {
    const refused = String(
      await coldStart({ SLACK_SIGNING_SECRET_ARN: undefined }, "source").catch((e: unknown) => e),
    );
    expect(refused).toMatch(/SLACK_SIGNING_SECRET: is required/);
  });
});
