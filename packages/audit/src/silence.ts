import type { Finding } from "./finding.ts";
import { type LabelMatcher, matchesAll } from "./matcher.ts";

/** What a silence matches; every given field must match (AND), an absent field matches anything. */
export interface SilenceMatchers {
  instanceID?: string;
  globalAccountID?: string;
  subAccountID?: string;
  plan?: string;
  region?: string;
  state?: string;
  /** The error reason (or failing step) as `reasonOf` gives it. */
  reason?: string;
  /** KubeEdge findings (the applications audit): the edge node, the request's verb and resource. */
  node?: string;
  verb?: string;
  resource?: string;
}

/** A silence with an expiry: matching findings change state quietly from `startsAt` to `endsAt`. */
export interface Silence {
  id: string;
  /** Audit it applies to; absent for every audit. */
  audit?: string;
  /** Label matchers, all of which must hold, over the finding's `labels` (`finding.ts`; `matcher.ts`). */
  match?: LabelMatcher[];
  /**
   * Named fields, as silences were stored before label matchers; read as `=` matchers on the
   * labels they name (`legacyMatchers`). A silence with `match` ignores them.
   */
  matchers: SilenceMatchers;
  startsAt: string;
  endsAt: string;
  createdBy: string;
  comment: string;
}

// Named fields as the labels they meant. `region` of the applications audit matched the node
// (an edge finding kept its node there), so it maps to `node`.
const LEGACY_LABELS: ReadonlyMap<string, string> = new Map([
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

/** A stored silence's named fields as label matchers (`=`). */
function legacyMatchers(s: Pick<Silence, "audit" | "matchers">): LabelMatcher[] {
  const out: LabelMatcher[] = [];
  for (const [field, value] of Object.entries(s.matchers ?? {})) {
    const label = field === "region" && s.audit === "applications" ? "node" : LEGACY_LABELS.get(field);
    if (label && typeof value === "string") out.push({ name: label, op: "=", value });
  }
  return out;
}

/**
 * The named fields to store beside label matchers, for a release before them that reads only
 * these (a rollback): the same `=` matchers where each has a named field, else a field no
 * finding has, so that the old release silences nothing rather than everything (it read a
 * silence without fields as matching all).
 */
export function storedFields(match: readonly LabelMatcher[]): SilenceMatchers {
  const field = new Map([...LEGACY_LABELS].map(([f, l]) => [l, f]));
  const out: Record<string, string> = {};
  for (const m of match) {
    const name = field.get(m.name);
    if (m.op !== "=" || !name || name in out) return { instanceID: INERT };
    out[name] = m.value;
  }
  return out as SilenceMatchers;
}

// An instance ID no KEB gives (a NUL inside): what an older release matches this silence against.
const INERT = "\u0000label-matchers";

// A run checks every transition against every silence: a stored silence's fields are read as
// matchers once, not once per finding.
const legacy = new WeakMap<object, LabelMatcher[]>();

/** The matchers a silence applies: its label matchers, else its named fields. */
export function matchersOf(s: Pick<Silence, "audit" | "match" | "matchers">): LabelMatcher[] {
  if (s.match) return s.match;
  let read = legacy.get(s);
  if (!read) {
    read = legacyMatchers(s);
    legacy.set(s, read);
  }
  return read;
}

/**
 * The first silence in force at `now` that matches the finding's labels. A silence without any
 * matcher matches nothing (it would silence everything).
 */
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

export function silencing(
  finding: Finding,
  audit: string,
  silences: readonly Silence[],
  now: Date,
): Silence | undefined {
  const t = now.getTime();
  return silences.find((s) => {
    if (s.audit !== undefined && s.audit !== audit) return false;
    if (Date.parse(s.startsAt) > t || Date.parse(s.endsAt) <= t) return false;
    const matchers = matchersOf(s);
    if (matchers.length === 0) return false;
    return matchesAll(matchers, finding.labels);
  });
}
