import {
  array,
  boolean,
  looseObject,
  nullable,
  number,
  object,
  optional,
  type output,
  string,
  unknown,
} from "zod";

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

/** A Kubernetes `metav1.Status` as it appears under `Error.ErrStatus`. */
export const K8sStatusSchema = looseObject({
  kind: optional(string()),
  apiVersion: optional(string()),
  metadata: optional(looseObject({})),
  status: optional(string()),
  message: optional(string()),
  reason: optional(string()),
  details: optional(
    looseObject({
      name: optional(string()),
      group: optional(string()),
      kind: optional(string()),
      uid: optional(string()),
      causes: optional(
        array(
          looseObject({ reason: optional(string()), message: optional(string()), field: optional(string()) }),
        ),
      ),
      retryAfterSeconds: optional(number()),
    }),
  ),
  code: optional(number().int()),
});
export type K8sStatus = output<typeof K8sStatusSchema>;

/** The Application's Go fields after case-insensitive binding (bytes still base64). */
export const ApplicationFieldsSchema = object({
  ID: optional(string()),
  Key: optional(string()),
  Verb: optional(string()),
  Nodename: optional(string()),
  Option: optional(nullable(unknown())),
  ReqBody: optional(nullable(unknown())),
  Subresource: optional(string()),
  RespBody: optional(nullable(unknown())),
  Status: optional(string()),
  Reason: optional(string()),
  Error: optional(nullable(unknown())),
  Timestamp: optional(nullable(string().regex(RFC3339, "expected an RFC 3339 time"))),
});

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

export const PATCH_INFO_FIELDS = ["Name", "PatchType", "Data", "Options", "Subresources"] as const;

/** `PatchInfo` fields after binding; `Data` is base64 inside the (already decoded) Option. */
export const PatchInfoFieldsSchema = object({
  Name: optional(string()),
  PatchType: optional(string()),
  Data: optional(nullable(unknown())),
  Options: optional(nullable(looseObject({}))),
  Subresources: optional(nullable(array(string()))),
});

/** The beehive `model.Message` envelope. */
export const BeehiveMessageSchema = object({
  header: looseObject({
    msg_id: string().min(1, "msg_id must not be empty"),
    parent_msg_id: optional(string()),
    timestamp: number().int().nonnegative(),
    resourceversion: optional(string()),
    sync: optional(boolean()),
    type: optional(string()),
  }),
  route: optional(
    nullable(
      looseObject({
        source: optional(string()),
        destination: optional(string()),
        group: optional(string()),
        operation: optional(string()),
        resource: optional(string()),
      }),
    ),
  ),
  content: unknown(),
});
