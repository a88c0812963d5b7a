import type { Finding, Labels } from "./finding.ts";
import { type LabelMatcher, matchesAll } from "./matcher.ts";

/** A silence with an expiry: matching findings change state quietly from `startsAt` to `endsAt`. */
export interface Silence {
  id: string;
  /** Audit it applies to; absent for every audit. */
  audit?: string;
  /** Label matchers, all of which must hold (`matcher.ts`); a silence without any matches nothing. */
  match: LabelMatcher[];
  startsAt: string;
  endsAt: string;
  createdBy: string;
  comment: string;
}

/** Where a silence stands at `now`: not begun yet (`pending`), `active`, or over (`expired`). */
export function silenceState(
  s: Pick<Silence, "startsAt" | "endsAt">,
  now: Date,
): "pending" | "active" | "expired" {
  const t = now.getTime();
  if (Date.parse(s.endsAt) <= t) return "expired";
  return Date.parse(s.startsAt) > t ? "pending" : "active";
}

/**
 * The matchers that hold for an incident's findings: one per label of its `groupBy` values, `=`
 * its value (`=~` the empty expression for a value that is empty, which `=` with nothing after
 * it would not say).
 */
export function incidentMatchers(values: Readonly<Record<string, string>>): LabelMatcher[] {
  return Object.entries(values).map(([name, value]) =>
    value === "" ? { name, op: "=~" as const, value: "" } : { name, op: "=" as const, value },
  );
}

/**
 * The first silence in force at `now` that matches the finding's labels, with `incidents`: the
 * labels that name its incident on each route it is on (`incident_<route>`, `incidentLabels`),
 * so that a silence of an incident holds whatever its members' reasons became. A silence without
 * any matcher matches nothing (it would silence everything).
 */
export function silencing(
  finding: Finding,
  audit: string,
  silences: readonly Silence[],
  now: Date,
  incidents?: Labels,
): Silence | undefined {
  const t = now.getTime();
  const labels = incidents ? { ...finding.labels, ...incidents } : finding.labels;
  return silences.find((s) => {
    if (s.audit !== undefined && s.audit !== audit) return false;
    if (Date.parse(s.startsAt) > t || Date.parse(s.endsAt) <= t) return false;
    if (s.match.length === 0) return false;
    return matchesAll(s.match, labels);
  });
}
