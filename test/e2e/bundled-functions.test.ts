import { createCipheriv, randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { renderDigests } from "@fleet-auditor/render";
import { ensureTable, statusTableDefinition } from "@fleet-auditor/store";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { useDynamo } from "../helpers/dynamo.ts";
import { PAGERDUTY_ROUTING_KEY, useFakePagerDuty } from "../helpers/fake-pagerduty.ts";
import { useFakeSecretsManager } from "../helpers/fake-secrets-manager.ts";
import { useFakeSlack } from "../helpers/fake-slack.ts";
import { useFakeSlackApi } from "../helpers/fake-slack-api.ts";
import { invokeInProcess } from "../helpers/function-process.ts";
import { failing, Landscape } from "../helpers/incident-landscape.ts";
import { useKebSimulator } from "../helpers/keb.ts";
import { emulatorEnv } from "../helpers/lambda.ts";
import { incidentText } from "../helpers/pager-messages.ts";
import { useSns } from "../helpers/sns.ts";
import { forLambda, snsEvent } from "../helpers/sns-event.ts";
import { ctx, t } from "../helpers/transitions.ts";

// The handlers as they are deployed: bundled as SST bundles them (esbuild, ESM, node22,
// minified, nothing external), given their linked resources the way SST does, as an AES-GCM
// encrypted resource file (SST_KEY_FILE) and its key (SST_KEY), and their secrets by the ARN of
// each in Secrets Manager (a stand-in on loopback), read through the bundled SDK.

const kit = useKebSimulator({
  fleet: { size: 200, seed: 101, flagged: 20 },
  auth: { clients: [{ id: "bundled", secret: "bundled-secret", groups: ["runtimeViewer"] }] },
});
const dynamo = useDynamo(["bundled-audit"]);
beforeAll(() => ensureTable(dynamo.db.client, statusTableDefinition("bundled-status")));
const sns = useSns();
const fake = useFakeSlack();
const pd = useFakePagerDuty();
const api = useFakeSlackApi();
const secrets = useFakeSecretsManager();
/** A secret's ARN, with its value set in the stand-in. */
const secretArn = (name: string, value: string): string => {
  const arn = `arn:aws:secretsmanager:us-east-1:123456789012:secret:fleet-auditor/bundled/${name}-AbC123`;
  secrets.sm.put(arn, value);
  return arn;
};
const bundles: Record<string, string> = {};

// The bundles as SST builds them, once per test run (test/setup/function-bundles.ts).
for (const [name, file] of Object.entries(inject("functionBundles")))
  bundles[name] = pathToFileURL(file).href;

/** The emulators as the functions' AWS, logging at INFO so that what they log is searched. */
const aws = () => ({
  ...emulatorEnv({ dynamodb: dynamo.db.endpoint, sns: `http://127.0.0.1:${sns.server.port}` }),
  AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.sm.url,
  POWERTOOLS_LOG_LEVEL: "INFO",
});

/** SST's linked resources as a deployed function gets them: an encrypted file and its key. */
function sstResources(resources: Record<string, { value: string }>): Record<string, string> {
  const key = randomBytes(32);
  const cipher = createCipheriv("aes-256-gcm", key, Buffer.alloc(12, 0));
  const data = JSON.stringify(
    Object.fromEntries(Object.entries(resources).map(([k, v]) => [k, { type: "sst.sst.Secret", ...v }])),
  );
  const file = join(mkdtempSync(join(tmpdir(), "fa-sst-")), "resource.enc");
  writeFileSync(file, Buffer.concat([cipher.update(data), cipher.final(), cipher.getAuthTag()]));
  return { SST_KEY: key.toString("base64"), SST_KEY_FILE: file };
}

describe("the bundled handlers with SST's linked resources", () => {
  it("the audit function reads KEB's address from SST's encrypted resources, its client secret from Secrets Manager, and runs", async () => {
    const out = await invokeInProcess(
      bundles.audit as string,
      { audit: "failing", dryRun: true },
      {
        ...sstResources({
          KebUrl: { value: kit.sim.url },
          KebTokenUrl: { value: kit.sim.tokenUrl as string },
          KebClientId: { value: "bundled" },
        }),
        KEB_CLIENT_SECRET_ARN: secretArn("KebClientSecret", "bundled-secret"),
        AUDIT_TABLE: "bundled-audit",
        ALERT_TOPIC_ARN: sns.topicArn,
        ...aws(),
      },
    );
    expect(out.result).toMatchObject({ audit: "failing", dryRun: true, complete: true });
    expect((out.result as { flagged: number }).flagged).toBeGreaterThan(0);
    expect(out.logs).not.toContain("bundled-secret");
  }, 60_000);

  it("the applications audit function runs bundled, with no secret at all", async () => {
    const out = await invokeInProcess(
      bundles["applications-audit"] as string,
      { audit: "applications", dryRun: true },
      {
        AUDIT_TABLE: "bundled-audit",
        STATUS_TABLE: "bundled-status",
        ALERT_TOPIC_ARN: sns.topicArn,
        ...aws(),
      },
    );
    expect(out.result).toMatchObject({ audit: "applications", dryRun: true, complete: true, flagged: 0 });
  }, 60_000);

  it("the Slack function reads its webhook from Secrets Manager and posts", async () => {
    fake.slack.attempts.length = 0;
    const [m] = renderDigests(ctx, [t(1)]);
    const out = await invokeInProcess(
      bundles.slack as string,
      snsEvent([JSON.parse(m?.message ?? "{}").default]),
      {
        SLACK_WEBHOOK_URL_ARN: secretArn("SlackWebhookUrl", fake.slack.url),
        ...aws(),
        POWERTOOLS_METRICS_DISABLED: "true",
      },
    );
    expect(out.result).toEqual({ posted: 1, dropped: 0 });
    expect(fake.slack.accepted()).toHaveLength(1);
    expect(out.logs).not.toContain("sEcReTwEbHoOkToKeN42");
  }, 60_000);

  it("the pager function reads its routing key from Secrets Manager and sends", async () => {
    const out = await invokeInProcess(
      bundles.pager as string,
      snsEvent([incidentText("firing", "inc-bundled")]),
      {
        PAGERDUTY_ROUTING_KEY_ARN: secretArn("PagerDutyRoutingKey", PAGERDUTY_ROUTING_KEY),
        PAGERDUTY_EVENTS_URL: pd.pagerduty.url,
        ...aws(),
        POWERTOOLS_METRICS_DISABLED: "true",
      },
    );
    expect(out.result).toEqual({ sent: 1, triggered: 1, resolved: 0, dropped: 0 });
    expect(pd.pagerduty.open("inc-bundled")).toBeDefined();
    expect(out.logs).toContain("sent to PagerDuty");
    expect(out.logs).not.toContain(PAGERDUTY_ROUTING_KEY);
  }, 60_000);

  it("the Slack function reads its bot token from Secrets Manager and threads an incident", async () => {
    api.api.reset();
    const l = new Landscape();
    const messages = [...l.run([failing("a", "eu-1")], 0), ...l.run([], 1)];
    for (const m of messages) {
      const out = await invokeInProcess(bundles.slack as string, snsEvent([forLambda(m.message)]), {
        SLACK_BOT_TOKEN_ARN: secretArn("SlackBotToken", api.api.token),
        SLACK_CHANNEL: api.api.channel,
        SLACK_API_URL: api.api.apiUrl,
        AUDIT_TABLE: "bundled-audit",
        ...aws(),
      });
      expect(out.result).toEqual({ posted: 1, dropped: 0 });
      expect(out.logs).not.toContain("SeCrEtBoTtOkEn");
    }
    const [parent, ...others] = api.api.topLevel();
    expect(others).toEqual([]);
    expect(api.api.replies(parent?.ts ?? "")).toEqual([expect.objectContaining({ broadcast: true })]);
  }, 60_000);
});
