import { MetaserverParseError } from "./errors.ts";

/** A Kubernetes group/version/resource; the core group is `""`. */
export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

/**
 * `ParseKey` of `pkg/metaserver/key.go`: `/{group}/{version}/{resource}/{namespace}/{name}`.
 * Segments past the end read as `""`, `core` becomes the empty group, `null` the empty namespace
 * or name; a key without a leading slash parses to all-empty. It validates nothing, like Go.
 */
export function parseKey(key: string): { gvr: GroupVersionResource; namespace: string; name: string } {
  const empty = { gvr: { group: "", version: "", resource: "" }, namespace: "", name: "" };
  const trimmed = key.replace(/\/+$/, "");
  if (trimmed === "") return empty;
  const parts = trimmed.split("/");
  if (parts[0] !== "") return empty;
  // Go's IndexCheck: an index out of range becomes 0, the leading empty segment.
  const at = (i: number): string => (i < parts.length ? (parts[i] ?? "") : (parts[0] ?? ""));
  const group = at(1) === "core" ? "" : at(1);
  const namespace = at(4) === "null" ? "" : at(4);
  const name = at(5) === "null" ? "" : at(5);
  return { gvr: { group, version: at(2), resource: at(3) }, namespace, name };
}

/**
 * k8s `meta.UnsafeGuessKindToResource`: lowercase the kind and pluralise naively
 * (`Pod`→`pods`, `Endpoints`→`endpoints`, `Ingress`→`ingresses`, `NetworkPolicy`→`networkpolicies`).
 */
export function kindToResource(kind: string): string {
  if (kind === "") return "";
  const singular = kind.toLowerCase();
  if (singular.endsWith("endpoints")) return singular;
  if (singular.endsWith("s")) return `${singular}es`;
  if (singular.endsWith("y")) return `${singular.slice(0, -1)}ies`;
  return `${singular}s`;
}

/** The parts of an object `keyFuncObj` reads. */
export interface KeyedObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { namespace?: string; name?: string };
}

/**
 * `KeyFuncObj`: the key of an object, from its GVK and metadata. The core group is `core`, an
 * empty namespace `null`; the name is used as it is (not replaced by `null`). Throws without a kind.
 */
export function keyFuncObj(obj: KeyedObject): string {
  if (!obj.kind) throw new MetaserverParseError("MS_APPLICATION", "object has no kind");
  const [groupOrVersion = "", maybeVersion] = (obj.apiVersion ?? "").split("/");
  const group = maybeVersion === undefined ? "" : groupOrVersion;
  const version = maybeVersion ?? groupOrVersion;
  const namespace = obj.metadata?.namespace || "null";
  return `/${group || "core"}/${version}/${kindToResource(obj.kind)}/${namespace}/${obj.metadata?.name ?? ""}`;
}

/** `KeyFunc`: `keyFuncObj`, or `""` when the key cannot be built. */
export function keyFunc(obj: KeyedObject): string {
  try {
    return keyFuncObj(obj);
  } catch {
    return "";
  }
}
