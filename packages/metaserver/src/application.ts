import { decodeBytes, utf8 } from "./base64.ts";
import { MetaserverParseError } from "./errors.ts";
import { bindGoFields, isObject, type KeyOrder, lastValue, membersOf, structMembers } from "./go-json.ts";
import { identifier } from "./identifier.ts";
import { decodeErrStatus, refuse } from "./k8s-status.ts";
import { type GroupVersionResource, parseKey } from "./key.ts";
import {
  APPLICATION_FIELDS,
  checker,
  GoString,
  GoTime,
  type K8sStatus,
  PATCH_INFO_FIELDS,
  PatchOptionsSchema,
  SubresourcesSchema,
} from "./schemas.ts";

/** A `patch` Application's decoded `Option`. */
interface PatchInfo {
  name: string;
  patchType: string;
  data?: Uint8Array;
  options?: Record<string, unknown>;
  subresources: string[];
}

/** One Application, decoded: bytes out of base64, key parsed, ID settled. */
export interface Application {
  id: string;
  key: string;
  verb: string;
  nodename: string;
  option?: Uint8Array;
  reqBody?: Uint8Array;
  subresource: string;
  respBody?: Uint8Array;
  status: string;
  reason: string;
  /** `Error.ErrStatus`; may be stale on an Approved response, so read it only for Rejected ones. */
  errStatus?: K8sStatus;
  /** RFC 3339, or null for Go's zero time or `null`. */
  timestamp: string | null;
  gvr: GroupVersionResource;
  namespace: string;
  name: string;
  patch?: PatchInfo;
}

const ZERO_TIME = /^0001-01-01T00:00:00(?:\.0+)?(?:Z|[+-]00:00)$/;

/**
 * Decodes one Application from its JSON object as Go's encoding/json would (`go-json.ts`): field
 * names case-insensitive, the last key bound to a field winning, unknown keys ignored, `[]byte`
 * fields from padded standard base64. `order` is the order Go meets the keys in: `sorted` for a
 * message's object content (it went through a Go map first), `document` for JSON text decoded as
 * it is. Throws `MetaserverParseError` naming the field.
 */
export function decodeApplication(
  input: unknown,
  where = "content",
  order: KeyOrder = "document",
): Application {
  if (!isObject(input))
    throw new MetaserverParseError("MS_APPLICATION", `${where}: an Application must be a JSON object`);
  const f = bindGoFields(membersOf(input, order), APPLICATION_FIELDS);
  const text = (field: (typeof APPLICATION_FIELDS)[number]): string =>
    lastValue(f.get(field), checker(GoString, "MS_APPLICATION", `${where}.${field}`)) ?? "";
  const bytes = (field: "Option" | "ReqBody" | "RespBody"): Uint8Array | undefined => {
    // A slice: each value is decoded (bad base64 fails the whole decode); the last one stays, `null` clearing it.
    let out: Uint8Array | undefined;
    for (const value of f.get(field) ?? []) out = decodeBytes(value, `${where}.${field}`);
    return out;
  };
  const timestamp = lastValue(f.get("Timestamp"), checker(GoTime, "MS_APPLICATION", `${where}.Timestamp`));
  const app: Application = {
    id: "",
    key: text("Key"),
    verb: text("Verb"),
    nodename: text("Nodename"),
    option: bytes("Option"),
    reqBody: bytes("ReqBody"),
    subresource: text("Subresource"),
    respBody: bytes("RespBody"),
    status: text("Status"),
    reason: text("Reason"),
    timestamp: timestamp && !ZERO_TIME.test(timestamp) ? timestamp : null,
    ...parseKey(text("Key")),
  };
  app.id = identifier({ ...app, id: text("ID") });
  const error = structMembers(f.get("Error"), order, refuse(`${where}.Error`));
  const errStatus = error && decodeErrStatus(error, `${where}.Error`, order);
  if (errStatus) app.errStatus = errStatus;
  if (app.verb === "patch" && app.option) app.patch = decodePatchInfo(app.option, where);
  return app;
}

/** A patch's `Option`: `PatchInfo` JSON bytes, decoded as written (`document` order). */
function decodePatchInfo(option: Uint8Array, where: string): PatchInfo {
  let json: unknown;
  try {
    json = JSON.parse(utf8(option));
  } catch {
    throw new MetaserverParseError(
      "MS_APPLICATION",
      `${where}.Option: a patch Option must be PatchInfo JSON`,
    );
  }
  if (!isObject(json))
    throw new MetaserverParseError("MS_APPLICATION", `${where}.Option: PatchInfo must be an object`);
  const at = `${where}.Option(PatchInfo)`;
  const f = bindGoFields(membersOf(json, "document"), PATCH_INFO_FIELDS);
  const text = (field: "Name" | "PatchType"): string =>
    lastValue(f.get(field), checker(GoString, "MS_APPLICATION", `${at}.${field}`)) ?? "";
  const info: PatchInfo = { name: text("Name"), patchType: text("PatchType"), subresources: [] };
  let data: Uint8Array | undefined;
  for (const value of f.get("Data") ?? []) data = decodeBytes(value, `${at}.Data`);
  if (data) info.data = data;
  // `metav1.PatchOptions` is a struct (objects merge); `Subresources` a slice (`null` clears it).
  const options = structMembers(f.get("Options"), "document", refuse(`${at}.Options`));
  if (options)
    info.options = checker(
      PatchOptionsSchema,
      "MS_APPLICATION",
      `${at}.Options`,
    )(Object.fromEntries(options));
  for (const value of f.get("Subresources") ?? [])
    info.subresources =
      value === null ? [] : checker(SubresourcesSchema, "MS_APPLICATION", `${at}.Subresources`)(value);
  return info;
}

/**
 * The outcome a row records: success is decided on `Status` alone (an Approved response can
 * carry a stale ErrStatus). For Rejected, the k8s status when it has a code, else `Reason`.
 */
export function rejection(
  app: Application,
): { code?: number; reason?: string; message?: string } | undefined {
  if (app.status !== "Rejected") return undefined;
  const s = app.errStatus;
  if (s?.code) return { code: s.code, reason: s.reason, message: s.message };
  return { message: app.reason || s?.message || "" };
}
