import { array, boolean, looseObject, number, optional, string, type ZodType } from "zod";
import { type MetaserverErrorCode, MetaserverParseError } from "./errors.ts";

// The Go types of the fields KubeEdge decodes a message into, one zod schema per field: each value
// bound to a field (see `go-json.ts`) is checked on its own, as Go decodes each one.

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

/** A Go `string` (or a string type such as `ApplicationVerb`). */
export const GoString = string();
/** A Go `int32`/`int64` as this product reads it. */
export const GoInt = number().int();
/** A `time.Time`: RFC 3339. */
export const GoTime = string().regex(RFC3339, "expected an RFC 3339 time");

/** The Application's struct fields (`pkg/metaserver/application.go`): none has a json tag. */
export const APPLICATION_FIELDS = [
  "ID",
  "Key",
  "Verb",
  "Nodename",
  "Option",
  "ReqBody",
  "Subresource",
  "RespBody",
  "Status",
  "Reason",
  "Error",
  "Timestamp",
] as const;

/** `PatchInfo` (`constants.go`): no json tags; `Data` is base64 inside the (already decoded) Option. */
export const PATCH_INFO_FIELDS = ["Name", "PatchType", "Data", "Options", "Subresources"] as const;
/** `PatchInfo.Options` (`metav1.PatchOptions`) and `Subresources` as they are kept. */
export const PatchOptionsSchema = looseObject({});
export const SubresourcesSchema = array(string());

/** `metav1.Status` by its json tags (TypeMeta inline), as it appears under `Error.ErrStatus`. */
export const K8S_STATUS_FIELDS = [
  "kind",
  "apiVersion",
  "metadata",
  "status",
  "message",
  "reason",
  "details",
  "code",
] as const;
/** `metav1.StatusDetails` by its json tags. */
export const STATUS_DETAILS_FIELDS = ["name", "group", "kind", "uid", "causes", "retryAfterSeconds"] as const;
export const ListMetaSchema = looseObject({});
export const CausesSchema = array(
  looseObject({ reason: optional(string()), message: optional(string()), field: optional(string()) }),
);

/** A Kubernetes `metav1.Status` as it appears under `Error.ErrStatus`. */
export interface K8sStatus {
  kind?: string;
  apiVersion?: string;
  metadata?: Record<string, unknown>;
  status?: string;
  message?: string;
  reason?: string;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    uid?: string;
    causes?: Array<{ reason?: string; message?: string; field?: string }>;
    retryAfterSeconds?: number;
  };
  code?: number;
}

/** The beehive `model.Message` by its json tags; `content` is an `interface{}`. */
export const MESSAGE_FIELDS = ["header", "route", "content"] as const;
/** `model.MessageHeader` by its json tags. */
export const HEADER_FIELDS = [
  "msg_id",
  "parent_msg_id",
  "timestamp",
  "resourceversion",
  "sync",
  "type",
] as const;
/** `model.MessageRoute` by its json tags. */
export const ROUTE_FIELDS = ["source", "destination", "group", "operation", "resource"] as const;
export const GoBool = boolean();

/**
 * A check of one value bound to a field: the schema's output, or `MetaserverParseError` `code`
 * naming `where` and the first issue.
 */
export function checker<T>(
  schema: ZodType<T>,
  code: MetaserverErrorCode,
  where: string,
): (value: unknown) => T {
  return (value) => {
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    const path = issue?.path.length ? `.${issue.path.join(".")}` : "";
    throw new MetaserverParseError(code, `${where}${path}: ${issue?.message ?? "invalid"}`);
  };
}
