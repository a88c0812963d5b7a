import { boolean, coerce, iso, optional, type output, strictObject, string } from "zod";
import { parseInput } from "./errors.ts";
import { withoutSchemaKey, withSchemaKey } from "./schema-key.ts";

/** A console query of the status table: `{ "node": "edge-1", "status": "Rejected", "since": "…" }`. */
export const StatusQueryInputSchema = withSchemaKey(
  strictObject({
    node: optional(string().min(1)),
    status: optional(string().min(1)),
    since: optional(iso.datetime({ offset: true })),
    limit: optional(coerce.number().int().positive().max(10_000)),
    /** List quarantined bodies instead of Applications. */
    quarantine: optional(boolean()),
  }),
);
export type StatusQueryInput = Omit<output<typeof StatusQueryInputSchema>, "$schema">;

/** Parses a status query; throws `RunInputError` naming every bad field. */
export function parseStatusQuery(input: unknown): StatusQueryInput {
  return withoutSchemaKey(parseInput(StatusQueryInputSchema, input ?? {}));
}
