import { AlertingEnvSchema, ConfigError, linksFrom, parseConfig } from "@fleet-auditor/use-cases";
import { describe, expect, it } from "vitest";

// Messages carry links only when they are plain https URLs (`safeLink`): a template that could
// never give one is refused where the process starts, naming the variable, not dropped in silence.

describe("link templates", () => {
  it("take an https template with placeholders", () => {
    const env = parseConfig(AlertingEnvSchema, {
      RUNTIME_URL_TEMPLATE: "https://console.example/runtimes/{instanceID}?from={region}",
    });
    expect(linksFrom(env)).toEqual({
      runtime: "https://console.example/runtimes/{instanceID}?from={region}",
    });
  });

  it("refuse one that is not https or holds <, > or |, naming the variable", () => {
    for (const [name, value] of [
      ["RUNBOOK_URL_TEMPLATE", "http://wiki.example/{reason}"],
      ["RUNTIME_URL_TEMPLATE", "https://console.example/{instanceID}|click"],
      ["REPORT_URL_TEMPLATE", "javascript:alert('{runId}')"],
    ] as const) {
      const err = (() => {
        try {
          parseConfig(AlertingEnvSchema, { [name]: value });
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).variables).toEqual([name]);
      expect((err as Error).message).toContain("https:");
    }
  });
});
