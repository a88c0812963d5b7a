import {
  type AuditDefinition,
  type InhibitRule,
  MAX_RULE_PARTS,
  parseInhibitRule,
  ruleMatcherProblem,
} from "@fleet-auditor/audit";
import { array, object, enum as oneOf, optional, strictObject, string, type ZodType } from "zod";
import type { AuditGrouping } from "./audit-registry.ts";

// `INHIBIT_RULES_<AUDIT>`: a stage's own inhibition rules for one audit (stages.json's
// `inhibitRules`, which the deploy writes here as JSON), added after the audit's shipped ones.

/** One rule as the variable spells it, its matchers checked against the audit's labels. */
function ruleSchema(audit: AuditDefinition) {
  const labels = audit.labels as [string, ...string[]];
  const matchers = array(
    string().superRefine((text, ctx) => {
      const problem = ruleMatcherProblem(text, audit.labels);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  )
    .min(1, "expected at least one matcher, such as state=refused")
    .max(MAX_RULE_PARTS);
  return strictObject({
    sourceMatchers: matchers,
    targetMatchers: matchers,
    equal: optional(
      array(
        oneOf(labels, { error: `expected one of ${audit.name}'s labels: ${audit.labels.join(", ")}` }),
      ).max(MAX_RULE_PARTS),
    ),
  });
}

/** The variable's JSON, parsed; text that is no JSON is one issue, never echoed. */
const json = string().transform((text, ctx): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    ctx.addIssue({ code: "custom", message: "expected a JSON array of inhibition rules" });
    return [];
  }
});

/**
 * `INHIBIT_RULES_<AUDIT>` for each of `audits` (the name upper-cased): a JSON array of rules
 * `{ "sourceMatchers": […], "targetMatchers": […], "equal": […] }`, parsed to the registry's
 * `inhibitRules`. A matcher the parser refuses or that names a label the audit's findings do not
 * carry fails the process's start, naming the variable, the rule and the field.
 */
export function inhibitRulesEnvSchema(
  audits: readonly AuditDefinition[],
): ZodType<Pick<AuditGrouping, "inhibitRules">> {
  const variable = (audit: AuditDefinition): string => `INHIBIT_RULES_${audit.name.toUpperCase()}`;
  return object(
    Object.fromEntries(audits.map((a) => [variable(a), optional(json.pipe(array(ruleSchema(a)).max(50)))])),
  ).transform((vars) => ({
    inhibitRules: new Map(
      audits.flatMap((a): Array<[string, InhibitRule[]]> => {
        const rules = vars[variable(a)];
        return rules?.length ? [[a.name, rules.map(parseInhibitRule)]] : [];
      }),
    ),
  }));
}
