import { SilenceMatcherError } from "./errors.ts";
import type { InhibitRule } from "./inhibition.ts";
import { type LabelMatcher, parseMatcher } from "./matcher.ts";

// An inhibition rule as a stage configures it (stages.json's `inhibitRules`, the functions'
// `INHIBIT_RULES_<AUDIT>`): matchers as text, one per element, as silences take them. The two
// schemas that read it (the deploy's and the function's) check it with the same words.

/** An inhibition rule as configuration spells it: `{ "sourceMatchers": ["state=refused"], … }`. */
export interface InhibitRuleText {
  sourceMatchers: string[];
  targetMatchers: string[];
  /** Labels whose values source and target must share; none: any source holds back any target. */
  equal?: string[];
}

/** A rule holds at most this many matchers a side and `equal` labels: it is typed by a person. */
export const MAX_RULE_PARTS = 10;

/**
 * What is wrong with one matcher of a rule of an audit whose findings carry `labels`, or
 * undefined: text `parseMatcher` refuses, or a label those findings do not have (it would read as
 * empty on every finding, a typo rather than a rule).
 */
export function ruleMatcherProblem(text: string, labels: readonly string[]): string | undefined {
  let m: LabelMatcher;
  try {
    m = parseMatcher(text);
  } catch (err) {
    if (err instanceof SilenceMatcherError) return err.message;
    throw err;
  }
  return labels.includes(m.name)
    ? undefined
    : `matcher ${JSON.stringify(text.slice(0, 80))}: no label ${m.name} on these findings; they have ${labels.join(", ")}`;
}

/** A checked rule as the engine takes it (`ruleMatcherProblem` found nothing wrong with it). */
export function parseInhibitRule(rule: InhibitRuleText): InhibitRule {
  return {
    sourceMatchers: rule.sourceMatchers.map((m) => parseMatcher(m)),
    targetMatchers: rule.targetMatchers.map((m) => parseMatcher(m)),
    equal: [...(rule.equal ?? [])],
  };
}
