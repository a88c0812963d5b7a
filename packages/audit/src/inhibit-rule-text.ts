import { SilenceMatcherError } from "./errors.ts";
import type { InhibitRule } from "./inhibition.ts";
import type { LabelMatcher } from "./matcher.ts";
import { parseMatchers } from "./matcher-parse.ts";

// An inhibition rule as a stage configures it (stages.json's `inhibitRules`, the functions'
// `INHIBIT_RULES_<AUDIT>`): matchers as text, one (or a braced list) per element, as silences take them. The two
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
 * undefined: text `parseMatchers` refuses (or none at all), or a label those findings do not have (it would read as
 * empty on every finding, a typo rather than a rule).
 */
export function ruleMatcherProblem(text: string, labels: readonly string[]): string | undefined {
  let matchers: LabelMatcher[];
  try {
    matchers = parseMatchers(text);
  } catch (err) {
    if (err instanceof SilenceMatcherError) return err.message;
    throw err;
  }
  if (matchers.length === 0) return `matcher ${JSON.stringify(text.slice(0, 80))}: no matcher in it`;
  const unknown = matchers.find((m) => !labels.includes(m.name));
  return unknown === undefined
    ? undefined
    : `matcher ${JSON.stringify(text.slice(0, 80))}: no label ${unknown.name} on these findings; they have ${labels.join(", ")}`;
}

/** A checked rule as the engine takes it (`ruleMatcherProblem` found nothing wrong with it). */
export function parseInhibitRule(rule: InhibitRuleText): InhibitRule {
  return {
    sourceMatchers: rule.sourceMatchers.flatMap((m) => parseMatchers(m)),
    targetMatchers: rule.targetMatchers.flatMap((m) => parseMatchers(m)),
    equal: [...(rule.equal ?? [])],
  };
}
