import { formatMatcher, type InhibitRule } from "@fleet-auditor/audit";
import { ConfigError, inhibitRulesEnvSchema, parseConfig } from "@fleet-auditor/use-cases";
import { describe, expect, it } from "vitest";
import { SHIPPED_AUDITS, testAudits } from "../../helpers/test-audits.ts";

// A stage's inhibition rules reach a function as `INHIBIT_RULES_<AUDIT>` (JSON, written by the
// deploy from stages.json) and are added after the audit's shipped ones; a rule that cannot be
// one fails the process's start, naming the variable, the rule and the field.

const EnvSchema = inhibitRulesEnvSchema(SHIPPED_AUDITS);

const text = (rules: readonly InhibitRule[] | undefined) =>
  (rules ?? []).map((r) => ({
    source: r.sourceMatchers.map(formatMatcher),
    target: r.targetMatchers.map(formatMatcher),
    equal: r.equal,
  }));
const rulesOf = (env: Record<string, string>, audit: string) =>
  text(testAudits({ grouping: parseConfig(EnvSchema, env) }).named(audit).audit.inhibitRules);

function failure(env: Record<string, string>): ConfigError {
  try {
    parseConfig(EnvSchema, env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error("expected a ConfigError");
}

describe("INHIBIT_RULES_<AUDIT>", () => {
  it("keeps each audit's shipped rules when unset: the applications audit's refusing node over its stuck Applications, none for KEB", () => {
    expect(rulesOf({}, "failing")).toEqual([]);
    expect(rulesOf({}, "applications")).toEqual([
      { source: ["state=refused"], target: ["state=stuck"], equal: ["node"] },
    ]);
  });

  it("adds the stage's rules after the audit's own, for that audit only", () => {
    const rule = { sourceMatchers: ["state=error"], targetMatchers: ["state=failed", "reason=~err_.*"] };
    const edge = { sourceMatchers: ["state=quarantined"], targetMatchers: ["state=stuck"], equal: ["code"] };
    const env = {
      INHIBIT_RULES_FAILING: JSON.stringify([rule]),
      INHIBIT_RULES_APPLICATIONS: JSON.stringify([edge]),
    };
    expect(rulesOf(env, "failing")).toEqual([
      { source: ["state=error"], target: ["state=failed", "reason=~err_.*"], equal: [] },
    ]);
    expect(rulesOf(env, "expired")).toEqual([]);
    expect(rulesOf(env, "applications")).toEqual([
      { source: ["state=refused"], target: ["state=stuck"], equal: ["node"] },
      { source: ["state=quarantined"], target: ["state=stuck"], equal: ["code"] },
    ]);
  });

  it("refuses a rule that cannot be one, naming the variable, the rule and the field, never echoing the JSON", () => {
    const good = { sourceMatchers: ["state=error"], targetMatchers: ["state=failed"] };
    const cases: Array<[unknown, RegExp]> = [
      [
        [good, { ...good, targetMatchers: ["reason=~("] }],
        /INHIBIT_RULES_FAILING\.1\.targetMatchers\.0: .*RE2/,
      ],
      [
        [{ ...good, sourceMatchers: ["node=edge-1"] }],
        /INHIBIT_RULES_FAILING\.0\.sourceMatchers\.0: .*no label node/,
      ],
      [
        [{ ...good, equal: ["colour"] }],
        /INHIBIT_RULES_FAILING\.0\.equal\.0: expected one of failing's labels/,
      ],
      [
        [{ ...good, sourceMatchers: [] }],
        /INHIBIT_RULES_FAILING\.0\.sourceMatchers: expected at least one matcher/,
      ],
      [[{ ...good, source: ["state=error"] }], /INHIBIT_RULES_FAILING\.0: Unrecognized key/],
    ];
    for (const [rules, problem] of cases) {
      const err = failure({ INHIBIT_RULES_FAILING: JSON.stringify(rules) });
      expect(err.variables[0], JSON.stringify(rules)).toMatch(/^INHIBIT_RULES_FAILING\./);
      expect(err.message, JSON.stringify(rules)).toMatch(problem);
    }
    const notJson = failure({ INHIBIT_RULES_FAILING: "[{s3cr3t" });
    expect(notJson.message).toMatch(/INHIBIT_RULES_FAILING: expected a JSON array of inhibition rules/);
    expect(notJson.message).not.toContain("s3cr3t");
  });
});
