import { SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { managedSecretReader } from "@fleet-auditor/store";
import { ConfigError, SecretUnreadableError, secretOf, secretRef } from "@fleet-auditor/use-cases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { string } from "zod";
import { useFakeSecretsManager } from "../../helpers/fake-secrets-manager.ts";

// The Secrets Manager reader (Powertools Parameters over the real SDK client) against a stand-in
// speaking Secrets Manager's JSON protocol on loopback: a value is cached for its maximum age, a
// value rotated there is read after it (or at once when asked afresh), and what goes wrong names
// the variable and the secret, never the value.

const stand = useFakeSecretsManager();
const ARN = "arn:aws:secretsmanager:us-east-1:123456789012:secret:fleet-auditor/test/KebClientSecret-AbC123";
let client: SecretsManagerClient;

beforeAll(() => {
  client = new SecretsManagerClient({
    region: "us-east-1",
    endpoint: stand.sm.url,
    credentials: { accessKeyId: "test", secretAccessKey: "test" },
  });
});
afterAll(() => client.destroy());

const gets = (id: string): number =>
  stand.sm.requests.filter((r) => r.operation === "GetSecretValue" && r.secretId === id).length;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("managedSecretReader", () => {
  it("reads a secret once within its maximum age, and a rotated value after it, without a new reader", async () => {
    stand.sm.put(ARN, "first-secret");
    const read = managedSecretReader({ client, maxAgeSeconds: 1 });
    expect(await read(ARN, { fresh: false })).toBe("first-secret");
    stand.sm.put(ARN, "second-secret");
    expect(await read(ARN, { fresh: false })).toBe("first-secret");
    expect(gets(ARN)).toBe(1);
    await sleep(1_100);
    expect(await read(ARN, { fresh: false })).toBe("second-secret");
    expect(gets(ARN)).toBe(2);
  });

  it("reads afresh at once when asked (after a refusal), and caches that value", async () => {
    const id = `${ARN}-fresh`;
    stand.sm.put(id, "old-value");
    const read = managedSecretReader({ client, maxAgeSeconds: 300 });
    expect(await read(id, { fresh: false })).toBe("old-value");
    stand.sm.put(id, "new-value");
    expect(await read(id, { fresh: false })).toBe("old-value");
    expect(await read(id, { fresh: true })).toBe("new-value");
    expect(await read(id, { fresh: false })).toBe("new-value");
    expect(gets(id)).toBe(2);
  });

  it("names the variable and the secret when the secret has no value yet, as the stack creates it", async () => {
    const id = `${ARN}-unset`;
    stand.sm.put(id, undefined);
    const ref = secretRef("KEB_CLIENT_SECRET", undefined, id, string().min(1));
    const secret = secretOf(ref as NonNullable<typeof ref>, managedSecretReader({ client }));
    const err = await secret().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SecretUnreadableError);
    expect((err as SecretUnreadableError).code).toBe("SECRET_UNREADABLE");
    expect(String(err)).toContain(`KEB_CLIENT_SECRET_ARN: could not read secret ${id}`);
    expect(String(err)).toContain("AWSCURRENT");
  });

  it("refuses a value pasted with its line break, naming the variable, never repeating the value", async () => {
    const id = `${ARN}-pasted`;
    stand.sm.put(id, "pAsTeDsEcReT\n");
    const check = string().refine((v) => v === v.trim(), "has surrounding spaces");
    const secret = secretOf(
      { variable: "SLACK_BOT_TOKEN", secretId: id, check },
      managedSecretReader({ client }),
    );
    const err = await secret().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect(String(err)).toContain("SLACK_BOT_TOKEN_ARN: the secret's value has surrounding spaces");
    expect(String(err)).not.toContain("pAsTeD");
  });

  it("is refused by a process that cannot read Secrets Manager, at once, naming the variable", () => {
    expect(() =>
      secretOf({ variable: "PAGERDUTY_ROUTING_KEY", secretId: ARN, check: string() }, undefined),
    ).toThrow(/PAGERDUTY_ROUTING_KEY_ARN: this process cannot read Secrets Manager/);
  });
});
