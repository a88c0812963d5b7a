import type { RunSummary } from "@fleet-auditor/audit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useDynamo } from "../helpers/dynamo.ts";
import { PAGERDUTY_ROUTING_KEY, useFakePagerDuty } from "../helpers/fake-pagerduty.ts";
import { useFakeSecretsManager } from "../helpers/fake-secrets-manager.ts";
import { useKebSimulator } from "../helpers/keb.ts";
import { emulatorEnv, fakeContext, recentHour, withEnv } from "../helpers/lambda.ts";
import { incidentText } from "../helpers/pager-messages.ts";
import { useSns } from "../helpers/sns.ts";
import { snsEvent } from "../helpers/sns-event.ts";

// The audit function as deployed: the KEB client secret in Secrets Manager (a stand-in on
// loopback), its ARN in KEB_CLIENT_SECRET_ARN. A secret rotated there (and at the issuer) is used
// by the same warm function: after the token endpoint refuses the value it holds, it reads the
// secret afresh once and retries, with no redeploy and no new cold start.

const client = { id: "auditor", secret: "before-rotation", groups: ["runtimeViewer"] };
// A public client and a technical user, for the password grant (as kcp's IAS application).
const user = { username: "tech-user", password: "pw-before-rotation", groups: ["runtimeViewer"] };
const kit = useKebSimulator({
  fleet: { size: 60, seed: 7, flagged: 6 },
  auth: { clients: [client, { id: "kcp" }], users: [user] },
});
const dynamo = useDynamo(["rot-audit"]);
const sns = useSns();
const stand = useFakeSecretsManager();
const pd = useFakePagerDuty();
const ARN = "arn:aws:secretsmanager:us-east-1:123456789012:secret:fleet-auditor/test/KebClientSecret-AbC123";
let restore: () => void = () => undefined;
afterEach(() => restore());

async function auditHandler() {
  restore = withEnv({
    KEB_URL: kit.sim.url,
    KEB_TOKEN_URL: kit.sim.tokenUrl,
    KEB_CLIENT_ID: "auditor",
    KEB_CLIENT_SECRET: undefined,
    KEB_CLIENT_SECRET_ARN: ARN,
    AUDIT_TABLE: "rot-audit",
    ALERT_TOPIC_ARN: sns.topicArn,
    ...emulatorEnv({ dynamodb: dynamo.db.endpoint, sns: `http://127.0.0.1:${sns.server.port}` }),
    AWS_ENDPOINT_URL_SECRETS_MANAGER: stand.sm.url,
  });
  vi.resetModules();
  return (await import("../../functions/audit.ts")).handler;
}

const reads = (id?: string) =>
  stand.sm.requests.filter((r) => r.operation === "GetSecretValue" && (id === undefined || r.secretId === id))
    .length;

const PASSWORD_ARN =
  "arn:aws:secretsmanager:us-east-1:123456789012:secret:fleet-auditor/test/KebPassword-AbC123";

/** The audit function of a stage whose `keb.grant` is `password`: the user linked, the password by ARN. */
async function passwordHandler() {
  restore = withEnv({
    KEB_URL: kit.sim.url,
    KEB_TOKEN_URL: kit.sim.tokenUrl,
    KEB_CLIENT_ID: "kcp",
    KEB_CLIENT_SECRET: undefined,
    KEB_CLIENT_SECRET_ARN: undefined,
    KEB_USERNAME: user.username,
    KEB_PASSWORD: undefined,
    KEB_PASSWORD_ARN: PASSWORD_ARN,
    AUDIT_TABLE: "rot-audit",
    ALERT_TOPIC_ARN: sns.topicArn,
    ...emulatorEnv({ dynamodb: dynamo.db.endpoint, sns: `http://127.0.0.1:${sns.server.port}` }),
    AWS_ENDPOINT_URL_SECRETS_MANAGER: stand.sm.url,
  });
  vi.resetModules();
  return (await import("../../functions/audit.ts")).handler;
}

describe("the KEB client secret in Secrets Manager", () => {
  it("is read when the first token is fetched, and afresh once after the token endpoint refuses it", async () => {
    stand.sm.put(ARN, "before-rotation");
    const handler = await auditHandler();
    const first = (await handler(
      { audit: "failing", scheduledTime: recentHour(0) },
      fakeContext(),
    )) as RunSummary;
    expect(first.complete).toBe(true);
    expect(reads()).toBe(1);

    // Rotated at the issuer and in Secrets Manager; the issuer's new keys make KEB refuse the
    // token the function holds, so it must fetch one, first with the secret it has cached.
    client.secret = "after-rotation";
    stand.sm.put(ARN, "after-rotation");
    await kit.sim.auth?.rotateKeys();
    const issued = kit.sim.auth?.issued.client_credentials ?? 0;
    const second = (await handler(
      { audit: "failing", scheduledTime: recentHour(1) },
      fakeContext(),
    )) as RunSummary;
    expect(second.complete).toBe(true);
    expect(reads()).toBe(2);
    expect(kit.sim.auth?.issued.client_credentials).toBe(issued + 1);
  });

  it("fails the run naming the variable and the secret when it has no value yet, never a value", async () => {
    stand.sm.put(ARN, undefined);
    await kit.sim.auth?.rotateKeys();
    const handler = await auditHandler();
    const run = await handler({ audit: "failing", scheduledTime: recentHour(2) }, fakeContext()).then(
      (s) => JSON.stringify(s),
      (e: unknown) => String(e),
    );
    expect(run).toContain("KEB_CLIENT_SECRET_ARN");
    expect(run).not.toContain("rotation");
  });
});

describe("the KEB password in Secrets Manager (password grant)", () => {
  it("is read when the first token is fetched, and afresh once after the issuer refuses it", async () => {
    stand.sm.put(PASSWORD_ARN, "pw-before-rotation");
    const handler = await passwordHandler();
    const first = (await handler(
      { audit: "failing", scheduledTime: recentHour(3) },
      fakeContext(),
    )) as RunSummary;
    expect(first.complete).toBe(true);
    expect(reads(PASSWORD_ARN)).toBe(1);

    // Rotated at the issuer and in Secrets Manager: the password the function holds is refused
    // (400 invalid_grant, as RFC 6749 answers a wrong password), so it reads it afresh once.
    user.password = "pw-after-rotation";
    stand.sm.put(PASSWORD_ARN, "pw-after-rotation");
    await kit.sim.auth?.rotateKeys();
    const issued = kit.sim.auth?.issued.password ?? 0;
    const second = (await handler(
      { audit: "failing", scheduledTime: recentHour(4) },
      fakeContext(),
    )) as RunSummary;
    expect(second.complete).toBe(true);
    expect(reads(PASSWORD_ARN)).toBe(2);
    expect(kit.sim.auth?.issued.password).toBe(issued + 1);
    expect(JSON.stringify([first, second])).not.toContain("pw-");
  });

  it("fails the run naming the variable and the secret when it has no value yet, never a value", async () => {
    stand.sm.put(PASSWORD_ARN, undefined);
    await kit.sim.auth?.rotateKeys();
    const handler = await passwordHandler();
    const run = await handler({ audit: "failing", scheduledTime: recentHour(5) }, fakeContext()).then(
      (s) => JSON.stringify(s),
      (e: unknown) => String(e),
    );
    expect(run).toContain("KEB_PASSWORD_ARN");
    expect(run).not.toContain("pw-");
  });
});

describe("the PagerDuty routing key in Secrets Manager", () => {
  it("is read afresh after a delivery that failed, so the retry uses a key rotated since", async () => {
    const arn =
      "arn:aws:secretsmanager:us-east-1:123456789012:secret:fleet-auditor/test/PagerDutyRoutingKey-AbC123";
    stand.sm.put(arn, "rEvOkEdKeY0123456789abcdef012345");
    restore = withEnv({
      PAGERDUTY_ROUTING_KEY: undefined,
      PAGERDUTY_ROUTING_KEY_ARN: arn,
      PAGERDUTY_EVENTS_URL: pd.pagerduty.url,
      AWS_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: "test",
      AWS_SECRET_ACCESS_KEY: "test",
      AWS_ENDPOINT_URL_SECRETS_MANAGER: stand.sm.url,
      POWERTOOLS_LOG_LEVEL: "CRITICAL",
      POWERTOOLS_METRICS_DISABLED: "true",
    });
    vi.resetModules();
    const { handler } = await import("../../functions/pager.ts");
    const event = snsEvent([incidentText("firing", "inc-rotated")]);
    const before = reads();
    // PagerDuty refuses the revoked key: the invocation fails (Lambda retries it).
    await expect(handler(event, fakeContext("fleet-auditor-pager"))).rejects.toThrow();
    expect(pd.pagerduty.open("inc-rotated")).toBeUndefined();
    // The key put since is read at once on the retry, within the 5 minutes a read is kept.
    stand.sm.put(arn, PAGERDUTY_ROUTING_KEY);
    expect(await handler(event, fakeContext("fleet-auditor-pager"))).toMatchObject({ triggered: 1 });
    expect(pd.pagerduty.open("inc-rotated")).toBeDefined();
    expect(reads() - before).toBe(2);
  });
});
