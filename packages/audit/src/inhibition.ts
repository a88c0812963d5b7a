import { type Finding, type Labels, labelOf } from "./finding.ts";
import { type LabelMatcher, matchesAll } from "./matcher.ts";

// Inhibition as Alertmanager's `inhibit_rules` (`inhibit/inhibit.go`): while a source finding
// fires, findings that match a rule's target matchers and share its `equal` labels with it are
// held back. Sources are indexed by their `equal` values, so a fleet of 20,000 findings is judged
// in one pass over the sources and one lookup per target and rule, never N × M.

/**
 * One inhibition rule: while a finding matching every `sourceMatchers` fires, a finding matching
 * every `targetMatchers` whose `equal` labels have the same values (absent reads as "", as in
 * Alertmanager) is held back (`Transition.inhibitedBy`). A finding never inhibits itself.
 *
 * @example
 * // A refusing edge node holds back its own stuck Applications.
 * const rule: InhibitRule = {
 *   sourceMatchers: parseMatchers("state=refused"),
 *   targetMatchers: parseMatchers("state=stuck"),
 *   equal: ["node"],
 * };
 */
export interface InhibitRule {
  sourceMatchers: LabelMatcher[];
  targetMatchers: LabelMatcher[];
  equal: string[];
}

/** Says, for a finding, the key of the firing source that holds it back, or undefined. */
export type Inhibitor = (finding: Finding) => string | undefined;

/** One rule's sources by their `equal` values: the least key of each side. */
interface Bucket {
  /** A source that matches the source side only. */
  oneSided?: string;
  /** A source that matches the target side too. */
  twoSided?: string;
}

/**
 * The inhibitor of `rules` over `sources` (the findings that fire now; a pending one does not
 * inhibit). Rules are tried in their order; the first that holds a finding back names its source,
 * the least key among those that qualify, so that the same run says the same whatever the order
 * of its findings.
 *
 * As Alertmanager: a target that matches a rule's source side too is held back only by a source
 * that does not match the target side, so two findings that match both sides do not hold each
 * other back, and none holds back itself.
 */
export function inhibitor(rules: readonly InhibitRule[], sources: Iterable<Finding>): Inhibitor {
  if (rules.length === 0) return () => undefined;
  const indexes = rules.map(() => new Map<string, Bucket>());
  for (const source of sources) {
    rules.forEach((rule, i) => {
      if (!matchesAll(rule.sourceMatchers, source.labels)) return;
      const index = indexes[i] as Map<string, Bucket>;
      const at = equalValues(rule, source.labels);
      const bucket = index.get(at) ?? {};
      if (matchesAll(rule.targetMatchers, source.labels))
        bucket.twoSided = firstOf(bucket.twoSided, source.key);
      else bucket.oneSided = firstOf(bucket.oneSided, source.key);
      index.set(at, bucket);
    });
  }
  return (finding) => {
    for (const [i, rule] of rules.entries()) {
      const index = indexes[i] as Map<string, Bucket>;
      if (index.size === 0 || !matchesAll(rule.targetMatchers, finding.labels)) continue;
      const bucket = index.get(equalValues(rule, finding.labels));
      if (!bucket) continue;
      const twoSided = matchesAll(rule.sourceMatchers, finding.labels);
      const by = twoSided ? bucket.oneSided : firstOf(bucket.oneSided, bucket.twoSided);
      if (by !== undefined && by !== finding.key) return by;
    }
    return undefined;
  };
}

/** The least of two keys either of which may be absent. */
function firstOf(a: string | undefined, b: string | undefined): string | undefined {
  return a === undefined ? b : b === undefined ? a : a < b ? a : b;
}

/** A rule's `equal` values of a label set, as one index key (JSON keeps "a,b" from "a","b"). */
function equalValues(rule: InhibitRule, labels: Labels): string {
  return JSON.stringify(rule.equal.map((name) => labelOf(labels, name)));
}
