import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunSummary } from "@fleet-auditor/audit";
import { auditTableDefinition, ensureTable } from "@fleet-auditor/store";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { cli, runArgs } from "../helpers/cli.ts";
import { useDynamo } from "../helpers/dynamo.ts";
import { useFakeSecretsManager } from "../helpers/fake-secrets-manager.ts";
import { invokeInProcess } from "../helpers/function-process.ts";
import { useTestProxy } from "../helpers/http-proxy.ts";
import { useKebSimulator } from "../helpers/keb.ts";
import { emulatorEnv, fakeContext, recentHour, withEnv } from "../helpers/lambda.ts";
import { useSns } from "../helpers/sns.ts";
import { startTlsRelay, type TlsRelay, testCertificate, trustInThisProcess } from "../helpers/test-tls.ts";

// The proxy variables as an operator sets them, end to end: the audit function in its own
// process and the CLI find KEB (`https://keb.test`, a name that resolves nowhere) and its token
// endpoint only through HTTPS_PROXY, a CONNECT proxy on loopback in front of a TLS relay to the
// simulator. The function trusts the relay's certificate as Node is told to, NODE_EXTRA_CA_CERTS.

const kit = useKebSimulator({
  fleet: { size: 120, seed: 23, flagged: 12 },
  auth: { clients: [{ id: "proxied", secret: "proxied-secret-value", groups: ["runtimeViewer"] }] },
});
const dynamo = useDynamo(["proxy-audit"]);
beforeAll(() => ensureTable(dynamo.db.client, auditTableDefinition("proxy-audit")));
const sns = useSns();
const certificate = testCertificate("keb.test");
let relay: TlsRelay;
beforeAll(async () => {
  relay = await startTlsRelay(certificate, () => Number(new URL(kit.sim.url).port));
});
afterAll(async () => {
  await relay?.close();
});
const proxy = useTestProxy({ "keb.test": { host: "127.0.0.1", port: () => relay.port } });

const keb = (): Record<string, string> => ({
  KEB_URL: "https://keb.test",
  KEB_TOKEN_URL: "https://keb.test/oauth2/token",
  KEB_CLIENT_ID: "proxied",
  KEB_CLIENT_SECRET: "proxied-secret-value",
  HTTPS_PROXY: proxy.proxy.url,
});

describe("HTTPS_PROXY, end to end", () => {
  it("the audit function reaches KEB and its token endpoint through HTTPS_PROXY", async () => {
    const seen = proxy.proxy.seen.length;
    const out = await invokeInProcess(
      "audit",
      { audit: "failing", dryRun: true },
      {
        ...keb(),
        NODE_EXTRA_CA_CERTS: certificate.certFile,
        AUDIT_TABLE: "proxy-audit",
        ALERT_TOPIC_ARN: sns.topicArn,
        ...emulatorEnv({ dynamodb: dynamo.db.endpoint, sns: `http://127.0.0.1:${sns.server.port}` }),
      },
    );
    expect(out.result).toMatchObject({ audit: "failing", dryRun: true, complete: true });
    expect((out.result as { flagged: number }).flagged).toBeGreaterThan(0);
    // KEB and the token endpoint through the proxy; DynamoDB and SNS, on loopback, never.
    expect(new Set(proxy.proxy.seen.slice(seen))).toEqual(new Set(["CONNECT keb.test:443"]));
  }, 60_000);

  it("the CLI's run reaches KEB through HTTPS_PROXY, and refuses a proxy URL that is none without echoing it", async () => {
    trustInThisProcess(certificate.cert);
    const seen = proxy.proxy.seen.length;
    const dir = mkdtempSync(join(tmpdir(), "fa-proxy-"));
    const run = await cli(runArgs("failing", "https://keb.test", dir, "--output", "json", "--dry-run"), {
      env: keb(),
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ audit: "failing", complete: true });
    expect(new Set(proxy.proxy.seen.slice(seen))).toEqual(new Set(["CONNECT keb.test:443"]));

    const bad = await cli(runArgs("failing", "https://keb.test", dir, "--dry-run"), {
      env: { ...keb(), HTTPS_PROXY: "proxy.corp:3128 secretword" },
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("HTTPS_PROXY");
    expect(bad.stderr).not.toContain("secretword");
  }, 60_000);
});

describe("HTTPS_PROXY_ARN: a proxy with credentials kept in Secrets Manager", () => {
  const stand = useFakeSecretsManager();
  const ARN = "arn:aws:secretsmanager:us-east-1:123456789012:secret:fleet-auditor/test/KebHttpsProxy-AbC123";
  const withCredentials = (credentials: string) => proxy.proxy.url.replace("//", `//${credentials}@`);
  let restore: () => void = () => undefined;
  afterEach(() => {
    restore();
    proxy.proxy.credentials = undefined;
  });

  it("the warm audit function reaches KEB through it, and after the proxy refuses a rotated password, reads it afresh once", async () => {
    trustInThisProcess(certificate.cert);
    proxy.proxy.credentials = "auditor:proxy-before";
    stand.sm.put(ARN, withCredentials("auditor:proxy-before"));
    restore = withEnv({
      ...keb(),
      HTTPS_PROXY: undefined,
      HTTPS_PROXY_ARN: ARN,
      AUDIT_TABLE: "proxy-audit",
      ALERT_TOPIC_ARN: sns.topicArn,
      ...emulatorEnv({ dynamodb: dynamo.db.endpoint, sns: `http://127.0.0.1:${sns.server.port}` }),
      AWS_ENDPOINT_URL_SECRETS_MANAGER: stand.sm.url,
    });
    vi.resetModules();
    const { handler } = await import("../../functions/audit.ts");
    const reads = () => stand.sm.requests.filter((r) => r.secretId === ARN).length;
    const seen = proxy.proxy.seen.length;
    const first = (await handler(
      { audit: "failing", scheduledTime: recentHour(10) },
      fakeContext(),
    )) as RunSummary;
    expect(first.complete).toBe(true);
    expect(new Set(proxy.proxy.seen.slice(seen))).toEqual(new Set(["CONNECT keb.test:443"]));
    expect(reads()).toBe(1);

    // Rotated at the proxy (which ends its tunnels) and in Secrets Manager: the next tunnel with
    // the password the function holds is refused (407), so it reads the secret afresh and retries.
    proxy.proxy.credentials = "auditor:proxy-after";
    proxy.proxy.dropTunnels();
    stand.sm.put(ARN, withCredentials("auditor:proxy-after"));
    const again = proxy.proxy.seen.length;
    const second = (await handler(
      { audit: "failing", scheduledTime: recentHour(11) },
      fakeContext(),
    )) as RunSummary;
    expect(second.complete, JSON.stringify([second, proxy.proxy.seen.slice(again)])).toBe(true);
    expect(proxy.proxy.seen.slice(again)).toContain("407 CONNECT keb.test:443");
    expect(proxy.proxy.seen.at(-1)).toBe("CONNECT keb.test:443");
    expect(reads()).toBe(2);
    expect(JSON.stringify([first, second])).not.toContain("proxy-before");
    expect(JSON.stringify([first, second])).not.toContain("proxy-after");
  }, 60_000);
});
