import { KebEnvSchema, kebClientFrom, kebTransportFrom } from "@fleet-auditor/keb-audits";
import { parseConfig } from "@fleet-auditor/use-cases";
import { describe, expect, it } from "vitest";

// The KEB connection's secrets by their `_ARN` twins, as a deployed function has them: the client
// secret, the password grant's password and a proxy with credentials each name a Secrets Manager
// secret, read when first used, and a value set by hand wins over its `_ARN`.

const ARN = (name: string) =>
  `arn:aws:secretsmanager:eu-central-1:123456789012:secret:fleet-auditor/prod/${name}-AbC`;
const oauth = {
  KEB_URL: "https://keb.example",
  KEB_TOKEN_URL: "https://ias.example/token",
  KEB_CLIENT_ID: "kcp",
};

describe("the KEB connection's secrets in Secrets Manager", () => {
  it("takes the password grant's password by KEB_PASSWORD_ARN, a value by hand winning", () => {
    const deployed = parseConfig(KebEnvSchema, {
      ...oauth,
      KEB_USERNAME: "tech-user",
      KEB_PASSWORD_ARN: ARN("KebPassword"),
    });
    expect(deployed.auth).toMatchObject({
      kind: "password",
      username: "tech-user",
      password: { variable: "KEB_PASSWORD", secretId: ARN("KebPassword") },
    });
    const local = parseConfig(KebEnvSchema, {
      ...oauth,
      KEB_USERNAME: "tech-user",
      KEB_PASSWORD: "by-hand",
      KEB_PASSWORD_ARN: ARN("KebPassword"),
    });
    expect(local.auth).toMatchObject({
      kind: "password",
      password: { variable: "KEB_PASSWORD", value: "by-hand" },
    });
  });

  it("refuses a password without its user, naming KEB_USERNAME", () => {
    expect(() => parseConfig(KebEnvSchema, { ...oauth, KEB_PASSWORD_ARN: ARN("KebPassword") })).toThrow(
      /KEB_USERNAME: required with KEB_PASSWORD or KEB_PASSWORD_ARN/,
    );
  });

  it("takes a proxy with credentials by HTTPS_PROXY_ARN, unless HTTPS_PROXY gives one", () => {
    const base = { ...oauth, KEB_CLIENT_SECRET_ARN: ARN("KebClientSecret"), NO_PROXY: ".corp" };
    const deployed = parseConfig(KebEnvSchema, { ...base, HTTPS_PROXY_ARN: ARN("KebHttpsProxy") });
    expect(deployed.httpsProxySecret).toMatchObject({
      variable: "HTTPS_PROXY",
      secretId: ARN("KebHttpsProxy"),
    });
    expect(deployed.proxy).toBeUndefined();
    const local = parseConfig(KebEnvSchema, {
      ...base,
      HTTPS_PROXY: "http://proxy.corp:3128",
      HTTPS_PROXY_ARN: ARN("KebHttpsProxy"),
    });
    expect(local.httpsProxySecret).toBeUndefined();
    expect(local.proxy).toEqual({ httpsProxy: "http://proxy.corp:3128", noProxy: ".corp" });
  });

  it("refuses a process that cannot read Secrets Manager at once, naming the variable", () => {
    const password = parseConfig(KebEnvSchema, {
      ...oauth,
      KEB_USERNAME: "tech-user",
      KEB_PASSWORD_ARN: ARN("KebPassword"),
    });
    const transport = kebTransportFrom(password, {});
    expect(() => kebClientFrom(password, transport)).toThrow(
      /KEB_PASSWORD_ARN: this process cannot read Secrets Manager/,
    );
    const proxied = parseConfig(KebEnvSchema, {
      KEB_URL: "https://keb.example",
      KEB_TOKEN: "t",
      HTTPS_PROXY_ARN: ARN("P"),
    });
    expect(() => kebTransportFrom(proxied, {})).toThrow(
      /HTTPS_PROXY_ARN: this process cannot read Secrets Manager/,
    );
  });
});
