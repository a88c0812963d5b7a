// Named imports, not the `z` namespace: the namespace keeps all of zod (and its locales) in a bundle.
import { array, looseObject, nullable, number, object, optional, type output, string, unknown } from "zod";
import { KEB_TIME } from "./time.ts";

const time = string().regex(KEB_TIME, "expected an RFC 3339 time");
const text = string().default("");
const count = number().int().nonnegative();

/** `error` on an operation (`internal/error/errors.go`); every field is omitempty in Go. */
const OperationErrorSchema = looseObject({
  message: optional(string()),
  reason: optional(string()),
  component: optional(string()),
  step: optional(string()),
  team: optional(string()),
});

/** One operation. The wire carries no `type`: the kind follows from the `status` field holding it. */
const OperationSchema = looseObject({
  state: text,
  type: optional(string()),
  description: text,
  createdAt: time,
  // Absent in 2020-era responses.
  updatedAt: optional(time),
  operationID: text,
  finishedStages: optional(nullable(array(string()))),
  executedButNotCompletedSteps: optional(nullable(array(string()))),
  error: optional(nullable(OperationErrorSchema)),
  updatedPlanName: optional(string()),
});

/** A list of operations; `data` is `null` when KEB counted only empty updates. */
const OperationsDataSchema = looseObject({
  data: nullable(array(OperationSchema)).default(null),
  totalCount: count.default(0),
  count: count.default(0),
  emptyUpdatesCount: optional(count),
});

/** `status` of a runtime: the displayed state and the embedded operations. */
export const RuntimeStatusSchema = looseObject({
  createdAt: time,
  modifiedAt: optional(time),
  expiredAt: optional(nullable(time)),
  deletedAt: optional(nullable(time)),
  // `""` on archived rows and with op_detail=last when no operation qualifies; older KEBs omit it.
  state: text,
  provisioning: optional(nullable(OperationSchema)),
  deprovisioning: optional(nullable(OperationSchema)),
  upgradingCluster: optional(nullable(OperationsDataSchema)),
  update: optional(nullable(OperationsDataSchema)),
  suspension: optional(nullable(OperationsDataSchema)),
  unsuspension: optional(nullable(OperationsDataSchema)),
});

/** One runtime as `GET /runtimes` returns it. Unknown fields are kept; identity strings default to `""`. */
export const RuntimeSchema = looseObject({
  instanceID: string().min(1, "instanceID must not be empty"),
  runtimeID: text,
  globalAccountID: text,
  subscriptionGlobalAccountID: text,
  subAccountID: text,
  region: text,
  subAccountRegion: text,
  shootName: text,
  serviceClassID: text,
  serviceClassName: text,
  servicePlanID: text,
  servicePlanName: text,
  provider: text,
  status: RuntimeStatusSchema,
  userID: optional(string()),
  betaEnabled: optional(string()),
  usedForProduction: optional(string()),
});

/** The page envelope. Items are validated one by one so that an error can name its instance. */
export const RuntimesPageEnvelopeSchema = object({
  data: array(unknown()),
  count: count,
  totalCount: count,
});

export type Operation = output<typeof OperationSchema>;
export type OperationsData = output<typeof OperationsDataSchema>;
export type RuntimeStatus = output<typeof RuntimeStatusSchema>;
export type Runtime = output<typeof RuntimeSchema>;

/** One validated page. */
export interface RuntimesPage {
  data: Runtime[];
  count: number;
  totalCount: number;
}
