import type { LabelMatcher, Silence } from "@fleet-auditor/audit";

// @deprecated with the flat form (`flat-finding.ts`): goes in the first release after 2027-03-31.
// Releases before label matchers stored a silence as named fields (`instanceID`, `region`, …);
// releases since then and before 2026-12 stored both. A silence reads as its label matchers.

type StoredSilence = Omit<Silence, "match"> & { match?: LabelMatcher[]; matchers?: Record<string, unknown> };

// Named fields as the labels they meant.
const NAMED: ReadonlyMap<string, string> = new Map([
  ["instanceID", "instance"],
  ["globalAccountID", "account"],
  ["subAccountID", "subaccount"],
  ["plan", "plan"],
  ["region", "region"],
  ["state", "state"],
  ["reason", "reason"],
  ["node", "node"],
  ["verb", "verb"],
  ["resource", "resource"],
]);

/** A stored silence, of this release or one before, with its label matchers. */
export function silenceOf(stored: StoredSilence): Silence {
  const { matchers, match, ...rest } = stored;
  return { ...rest, match: match ?? namedMatchers(stored.audit, matchers ?? {}) };
}

/** Named fields as `=` matchers. The applications audit's `region` matched the node, kept there. */
function namedMatchers(audit: string | undefined, named: Record<string, unknown>): LabelMatcher[] {
  const out: LabelMatcher[] = [];
  for (const [field, value] of Object.entries(named)) {
    const label = field === "region" && audit === "applications" ? "node" : NAMED.get(field);
    if (label && typeof value === "string") out.push({ name: label, op: "=", value });
  }
  return out;
}
