import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { auditTableDefinition, ensureTable } from "@fleet-auditor/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, runArgs } from "../helpers/cli.ts";
import { useDynamo } from "../helpers/dynamo.ts";
import { invokeInProcess } from "../helpers/function-process.ts";
import { useTestProxy } from "../helpers/http-proxy.ts";
import { useKebSimulator } from "../helpers/keb.ts";
import { emulatorEnv } from "../helpers/lambda.ts";
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
