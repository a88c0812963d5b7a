import type { ZodError } from "zod";
import { decodeBytes, utf8 } from "./base64.ts";
import { MetaserverParseError } from "./errors.ts";
import { bindGoFields, isObject } from "./go-json.ts";
import { identifier } from "./identifier.ts";
import { type GroupVersionResource, parseKey } from "./key.ts";
import {
  APPLICATION_FIELDS,
  ApplicationFieldsSchema,
  type K8sStatus,
  K8sStatusSchema,
  PATCH_INFO_FIELDS,
  PatchInfoFieldsSchema,
} from "./schemas.ts";

/** A `patch` Application's decoded `Option`. */
export interface PatchInfo {
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
 * Decodes one Application from its JSON object, as Go's encoding/json would: field names
 * case-insensitive, unknown keys ignored, `[]byte` fields from padded standard base64. Throws
 * `MetaserverParseError` naming the field.
 */
export function decodeApplication(input: unknown, where = "content"): Application {
  if (!isObject(input))
    throw new MetaserverParseError("MS_APPLICATION", `${where}: an Application must be a JSON object`);
  const parsed = ApplicationFieldsSchema.safeParse(bindGoFields(input, APPLICATION_FIELDS));
  if (!parsed.success) throw schemaError(parsed.error, where);
  const f = parsed.data;
  const app: Application = {
    id: "",
    key: f.Key ?? "",
    verb: f.Verb ?? "",
    nodename: f.Nodename ?? "",
    option: decodeBytes(f.Option, `${where}.Option`),
    reqBody: decodeBytes(f.ReqBody, `${where}.ReqBody`),
    subresource: f.Subresource ?? "",
    respBody: decodeBytes(f.RespBody, `${where}.RespBody`),
    status: f.Status ?? "",
    reason: f.Reason ?? "",
    timestamp: f.Timestamp && !ZERO_TIME.test(f.Timestamp) ? f.Timestamp : null,
    ...parseKey(f.Key ?? ""),
  };
  app.id = identifier({ ...app, id: f.ID });
  const errStatus = decodeErrStatus(f.Error, where);
  if (errStatus) app.errStatus = errStatus;
  if (app.verb === "patch" && app.option) app.patch = decodePatchInfo(app.option, where);
  return app;
}

function decodeErrStatus(value: unknown, where: string): K8sStatus | undefined {
  if (value === null || value === undefined) return undefined;
  if (!isObject(value))
    throw new MetaserverParseError("MS_APPLICATION", `${where}.Error: expected an object`);
  const bound = bindGoFields(value, ["ErrStatus"] as const).ErrStatus;
  if (bound === undefined || bound === null) return undefined;
  const parsed = K8sStatusSchema.safeParse(bound);
  if (!parsed.success) throw schemaError(parsed.error, `${where}.Error.ErrStatus`);
  return parsed.data;
}

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
  const parsed = PatchInfoFieldsSchema.safeParse(bindGoFields(json, PATCH_INFO_FIELDS));
  if (!parsed.success) throw schemaError(parsed.error, `${where}.Option(PatchInfo)`);
  const p = parsed.data;
  const info: PatchInfo = {
    name: p.Name ?? "",
    patchType: p.PatchType ?? "",
    subresources: p.Subresources ?? [],
  };
  const data = decodeBytes(p.Data, `${where}.Option(PatchInfo).Data`);
  if (data) info.data = data;
  if (p.Options) info.options = p.Options;
  return info;
}

function schemaError(error: ZodError, where: string): MetaserverParseError {
  const issue = error.issues[0];
  const path = issue?.path.length ? `.${issue.path.join(".")}` : "";
  return new MetaserverParseError("MS_APPLICATION", `${where}${path}: ${issue?.message ?? "invalid"}`);
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
