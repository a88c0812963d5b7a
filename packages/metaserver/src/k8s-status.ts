import { MetaserverParseError } from "./errors.ts";
import { bindGoFields, type KeyOrder, lastValue, type Members, membersOf, structMembers } from "./go-json.ts";
import {
  CausesSchema,
  checker,
  GoInt,
  GoString,
  K8S_STATUS_FIELDS,
  type K8sStatus,
  ListMetaSchema,
  STATUS_DETAILS_FIELDS,
} from "./schemas.ts";

// `apierrors.StatusError` (the Application's `Error`) as Go decodes it: `ErrStatus` is a
// `metav1.Status`, bound by its json tags, case-insensitively, the last key winning.

/** The `ErrStatus` of an Application's `Error` members, or undefined when it has none. */
export function decodeErrStatus(error: Members, where: string, order: KeyOrder): K8sStatus | undefined {
  const bound = bindGoFields(error, ["ErrStatus"] as const);
  const members = structMembers(bound.get("ErrStatus"), order, refuse(`${where}.ErrStatus`));
  return members && decodeK8sStatus(members, `${where}.ErrStatus`, order);
}

function decodeK8sStatus(members: Members, where: string, order: KeyOrder): K8sStatus {
  const f = bindGoFields(members, K8S_STATUS_FIELDS);
  const text = (field: (typeof K8S_STATUS_FIELDS)[number]) =>
    lastValue(f.get(field), checker(GoString, "MS_APPLICATION", `${where}.${field}`));
  const status: K8sStatus = {};
  const set = <K extends keyof K8sStatus>(key: K, value: K8sStatus[K] | undefined): void => {
    if (value !== undefined) status[key] = value;
  };
  set("kind", text("kind"));
  set("apiVersion", text("apiVersion"));
  set(
    "metadata",
    lastValue(f.get("metadata"), checker(ListMetaSchema, "MS_APPLICATION", `${where}.metadata`)),
  );
  set("status", text("status"));
  set("message", text("message"));
  set("reason", text("reason"));
  set("details", decodeDetails(f.get("details"), `${where}.details`, order));
  set("code", lastValue(f.get("code"), checker(GoInt, "MS_APPLICATION", `${where}.code`)));
  return status;
}

/** `*StatusDetails`: a pointer, so a `null` clears it; objects after it are decoded into one. */
function decodeDetails(
  values: readonly unknown[] | undefined,
  where: string,
  order: KeyOrder,
): K8sStatus["details"] {
  let members: Array<readonly [string, unknown]> | undefined;
  for (const value of values ?? []) {
    if (value === null) members = undefined;
    else if (typeof value === "object" && !Array.isArray(value))
      members = [...(members ?? []), ...membersOf(value as Record<string, unknown>, order)];
    else refuse(where)(value);
  }
  if (!members) return undefined;
  const f = bindGoFields(members, STATUS_DETAILS_FIELDS);
  const details: NonNullable<K8sStatus["details"]> = {};
  for (const field of ["name", "group", "kind", "uid"] as const) {
    const value = lastValue(f.get(field), checker(GoString, "MS_APPLICATION", `${where}.${field}`));
    if (value !== undefined) details[field] = value;
  }
  // A slice: a `null` clears it, an array replaces it.
  const causes = checker(CausesSchema, "MS_APPLICATION", `${where}.causes`);
  for (const value of f.get("causes") ?? []) {
    if (value === null) delete details.causes;
    else details.causes = causes(value);
  }
  const retry = lastValue(
    f.get("retryAfterSeconds"),
    checker(GoInt, "MS_APPLICATION", `${where}.retryAfterSeconds`),
  );
  if (retry !== undefined) details.retryAfterSeconds = retry;
  return details;
}

/** The refusal of a value that should have been a JSON object. */
export function refuse(where: string): (value: unknown) => never {
  return (value) => {
    throw new MetaserverParseError(
      "MS_APPLICATION",
      `${where}: expected an object, got ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}`,
    );
  };
}
