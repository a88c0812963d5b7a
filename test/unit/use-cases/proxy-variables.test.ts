import { KebEnvSchema } from "@fleet-auditor/keb-audits";
import { parseConfig, SlackEnvSchema } from "@fleet-auditor/use-cases";
import { describe, expect, it } from "vitest";

// HTTPS_PROXY, HTTP_PROXY and NO_PROXY as curl and undici read them, parsed where the process
// starts into the settings the KEB transport and the Slack agent take.

const keb = { KEB_URL: "https://keb.example", KEB_TOKEN: "a-token" };

describe("the proxy variables", () => {
  it("give the KEB connection its proxy, the lower-case spelling winning", () => {
    const env = parseConfig(KebEnvSchema, {
      ...keb,
      https_proxy: "http://proxy.corp:3128",
      HTTPS_PROXY: "http://other.corp:3128",
      HTTP_PROXY: "http://plain.corp:8080",
      NO_PROXY: ".corp.example, 10.1.2.3",
    });
    expect(env.proxy).toEqual({
      httpsProxy: "http://proxy.corp:3128",
      httpProxy: "http://plain.corp:8080",
      noProxy: ".corp.example, 10.1.2.3",
    });
  });

  it("leave the proxy out when no proxy is set: empty is unset, and NO_PROXY alone changes nothing", () => {
    expect(parseConfig(KebEnvSchema, keb).proxy).toBeUndefined();
    expect(parseConfig(KebEnvSchema, { ...keb, HTTPS_PROXY: "", NO_PROXY: "*" }).proxy).toBeUndefined();
  });

  it("give the Slack function its proxy too", () => {
    const env = parseConfig(SlackEnvSchema, {
      SLACK_WEBHOOK_URL: "https://hooks.slack.com/services/T/B/x",
      HTTPS_PROXY: "http://proxy.corp:3128",
    });
    expect(env).toMatchObject({
      SLACK_MIN_INTERVAL_MS: 1000,
      proxy: { httpsProxy: "http://proxy.corp:3128" },
    });
    expect(env).not.toHaveProperty("HTTPS_PROXY");
  });

  it("refuse a proxy that is no URL, naming the variable and never repeating its value", () => {
    const refused = (() => {
      try {
        parseConfig(KebEnvSchema, { ...keb, HTTP_PROXY: "user:pa55word@proxy.corp" });
      } catch (err) {
        return err as Error;
      }
    })();
    expect(refused?.message).toContain("HTTP_PROXY");
    expect(refused?.message).not.toContain("pa55word");
  });
});
