import type { Finding } from "./finding.ts";
import { reasonOf } from "./finding.ts";

// Alertmanager's lesson: what a finding is about, as a flat set of labels that silences match
// (and, as the model grows, that groups and links are made of). A label a finding does not have
// reads as "", as in Alertmanager, so `instance=` matches findings without one.

/** A finding's labels: names of ours, bounded one-line values from the finding. */
export type Labels = ReadonlyMap<string, string>;

/** The labels of a KEB finding. */
export const KEB_LABELS = [
  "instance",
  "runtime",
  "shoot",
  "account",
  "subaccount",
  "plan",
  "region",
  "provider",
  "state",
  "reason",
] as const;

/** The labels of an edge (KubeEdge) finding. */
export const EDGE_LABELS = [
  "node",
  "verb",
  "resource",
  "namespace",
  "name",
  "status",
  "state",
  "reason",
  "code",
] as const;

/** A finding's labels (a `Map`: values are outside text, never keys of a plain object). */
export function labelsOf(f: Finding): Labels {
  const e = f.edge;
  if (e) {
    // The Application's key: /{group}/{version}/{resource}/{namespace}/{name}, `null` for none.
    const [, , , , namespace = "", name = ""] = e.key.split("/");
    const part = (v: string): string => (v === "null" ? "" : v);
    return new Map([
      ["node", e.node],
      ["verb", e.verb],
      ["resource", e.resource],
      ["namespace", part(namespace)],
      ["name", part(name)],
      ["status", e.status ?? ""],
      ["state", f.state],
      ["reason", e.reason],
      ["code", e.code ? String(e.code) : ""],
    ]);
  }
  return new Map([
    ["instance", f.instanceID],
    ["runtime", f.runtimeID],
    ["shoot", f.shootName],
    ["account", f.globalAccountID],
    ["subaccount", f.subAccountID],
    ["plan", f.plan],
    ["region", f.region],
    ["provider", f.provider],
    ["state", f.state],
    ["reason", reasonOf(f)],
  ]);
}
