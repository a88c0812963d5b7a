import { array, boolean, iso, optional, type output, strictObject, string } from "zod";
import { parseInput } from "./errors.ts";
import { withoutSchemaKey, withSchemaKey } from "./schema-key.ts";

const values = optional(array(string().min(1)).min(1));

/** Extra KEB filters a run may add (never states: those are the audit's own). */
const NarrowingFiltersSchema = strictObject({
  plans: values,
  regions: values,
  globalAccountIDs: values,
  subAccountIDs: values,
  shoots: values,
  instanceIDs: values,
  runtimeIDs: values,
});

/**
 * What starts a run: the schedule's `event`, a console test event, or the CLI. The schedule sets
 * `scheduledTime` from EventBridge Scheduler's `<aws.scheduler.scheduled-time>`; it keys
 * idempotency. Unknown fields are refused so that a typo does not run an unintended audit.
 */
export const AuditRunInputSchema = withSchemaKey(
  strictObject({
    audit: string().min(1),
    filters: optional(NarrowingFiltersSchema),
    dryRun: optional(boolean()),
    notify: optional(boolean()),
    scheduledTime: optional(iso.datetime({ offset: true })),
    now: optional(iso.datetime({ offset: true })),
  }),
);

export type AuditRunInput = Omit<output<typeof AuditRunInputSchema>, "$schema">;

/** Parses a run input; throws `RunInputError` listing every bad field by path. */
export function parseRunInput(input: unknown): AuditRunInput {
  return withoutSchemaKey(parseInput(AuditRunInputSchema, input));
}
