import { AlertingEnvSchema, ConfigError, groupByEnvSchema, parseConfig } from "@fleet-auditor/use-cases";
import { describe, expect, it } from "vitest";
import { SHIPPED_AUDITS, testAudits } from "../../helpers/test-audits.ts";

// How each audit groups is set per audit (one function runs both KEB audits), and a label the
// audit's findings do not carry is refused where the process starts, naming the variable: it
// would otherwise group every finding under one empty value, in silence.

const EnvSchema = AlertingEnvSchema.and(groupByEnvSchema(SHIPPED_AUDITS));

const groupByOf = (env: Record<string, string>, audit: string): readonly string[] | undefined =>
  testAudits({ grouping: parseConfig(EnvSchema, env) }).named(audit).audit.groupBy;

describe("GROUP_BY_<AUDIT>", () => {
  it("keeps each audit's own groupBy when unset", () => {
    expect(groupByOf({}, "failing")).toEqual(["state", "reason", "region"]);
    expect(groupByOf({}, "applications")).toEqual(["state", "node", "reason"]);
  });

  it("sets one audit's labels and leaves the others", () => {
    const env = { GROUP_BY_FAILING: "state,reason,region,plan" };
    expect(groupByOf(env, "failing")).toEqual(["state", "reason", "region", "plan"]);
    expect(groupByOf(env, "expired")).toEqual(["state", "reason", "region"]);
  });

  it("refuses a label the audit's findings do not carry, naming the variable and the labels it has", () => {
    for (const [name, value] of [
      ["GROUP_BY_FAILING", "state,regoin"],
      ["GROUP_BY_APPLICATIONS", "state,region"],
      ["GROUP_BY_EXPIRED", ""],
    ] as const) {
      const err = (() => {
        try {
          parseConfig(EnvSchema, { [name]: value });
        } catch (e) {
          return e;
        }
      })();
      expect(err, `${name}=${value}`).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).variables).toEqual([name]);
      expect((err as Error).message).toContain("labels, comma-separated");
    }
  });

  it("is read for the audits a process registers, and only those", () => {
    const kebOnly = AlertingEnvSchema.and(
      groupByEnvSchema(SHIPPED_AUDITS.filter((a) => a.name !== "applications")),
    );
    // The applications audit is not this process's: its variable is not read, so not refused.
    expect(() => parseConfig(kebOnly, { GROUP_BY_APPLICATIONS: "region" })).not.toThrow();
    expect(() => parseConfig(EnvSchema, { GROUP_BY_APPLICATIONS: "region" })).toThrow(ConfigError);
  });
});
