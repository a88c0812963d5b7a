import type { $ZodIssue } from "zod/v4/core";
import { KebSchemaError } from "./errors.ts";
import { type Runtime, RuntimeSchema, type RuntimesPage, RuntimesPageEnvelopeSchema } from "./schemas.ts";

/**
 * Validates a decoded `/runtimes` body. The envelope first, then each item on its own, so the
 * error names the item's JSON path and its `instanceID` rather than failing anonymously.
 */
export function parseRuntimesPage(body: unknown, page?: number): RuntimesPage {
  const envelope = RuntimesPageEnvelopeSchema.safeParse(body);
  if (!envelope.success) throw schemaError(envelope.error.issues, "", page);
  const data: Runtime[] = new Array(envelope.data.data.length);
  envelope.data.data.forEach((item, i) => {
    const parsed = RuntimeSchema.safeParse(item);
    if (!parsed.success) {
      const id = (item as { instanceID?: unknown } | null)?.instanceID;
      throw schemaError(parsed.error.issues, `data[${i}]`, page, typeof id === "string" ? id : undefined);
    }
    data[i] = parsed.data;
  });
  return { data, count: envelope.data.count, totalCount: envelope.data.totalCount };
}

function schemaError(issues: readonly $ZodIssue[], prefix: string, page?: number, instanceID?: string) {
  const issue = issues[0];
  const path = jsonPath(prefix, issue?.path ?? []);
  return new KebSchemaError({ path, problem: issue?.message ?? "invalid", page, instanceID });
}

/** `$.data[3].status.createdAt` from zod's path segments. */
function jsonPath(prefix: string, segments: readonly PropertyKey[]): string {
  let path = `$${prefix ? `.${prefix}` : ""}`;
  for (const s of segments) path += typeof s === "number" ? `[${s}]` : `.${String(s)}`;
  return path;
}
