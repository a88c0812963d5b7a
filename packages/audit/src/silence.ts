import { type Finding, reasonOf } from "./finding.ts";

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

/** A silence with an expiry: matching runtimes change state quietly until `endsAt`. */
export interface Silence {
  id: string;
  /** Audit it applies to; absent for every audit. */
  audit?: string;
  matchers: SilenceMatchers;
  startsAt: string;
  endsAt: string;
  createdBy: string;
  comment: string;
}

/** The first silence in force at `now` that matches the finding. */
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
    const m = s.matchers;
    return (
      (m.instanceID === undefined || m.instanceID === finding.instanceID) &&
      (m.globalAccountID === undefined || m.globalAccountID === finding.globalAccountID) &&
      (m.subAccountID === undefined || m.subAccountID === finding.subAccountID) &&
      (m.plan === undefined || m.plan === finding.plan) &&
      (m.region === undefined || m.region === finding.region) &&
      (m.state === undefined || m.state === finding.state) &&
      (m.reason === undefined || m.reason === reasonOf(finding)) &&
      (m.node === undefined || m.node === finding.edge?.node) &&
      (m.verb === undefined || m.verb === finding.edge?.verb) &&
      (m.resource === undefined || m.resource === finding.edge?.resource)
    );
  });
}
