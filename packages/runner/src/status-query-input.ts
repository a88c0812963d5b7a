import { boolean, coerce, iso, optional, type output, strictObject, string } from "zod";
import { RunInputError } from "./run-input.ts";

/** A console query of the status table: `{ "node": "edge-1", "status": "Rejected", "since": "…" }`. */
export const StatusQueryInputSchema = strictObject({
  node: optional(string().min(1)),
  status: optional(string().min(1)),
  since: optional(iso.datetime({ offset: true })),
  limit: optional(coerce.number().int().positive().max(10_000)),
  /** List quarantined bodies instead of Applications. */
  quarantine: optional(boolean()),
});
export type StatusQueryInput = output<typeof StatusQueryInputSchema>;

/** Parses a status query; throws an error naming every bad field. */
export function parseStatusQuery(input: unknown): StatusQueryInput {
  const parsed = StatusQueryInputSchema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  throw new RunInputError(parsed.error.issues.map((i) => `${i.path.join(".") || "(input)"}: ${i.message}`));
}
