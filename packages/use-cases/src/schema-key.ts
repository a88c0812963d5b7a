import { optional, string, type ZodObject, type ZodRawShape } from "zod";

/**
 * `schema` that also takes a `$schema` key: an editor's reference to the input's published JSON
 * Schema (`events/*.json` carry theirs, so that an event is checked while it is written). The
 * key means nothing to a run; the parse functions drop it.
 */
export function withSchemaKey<T extends ZodRawShape>(schema: ZodObject<T>) {
  return schema.extend({ $schema: optional(string()) });
}

/** A parsed input without its `$schema` key. */
export function withoutSchemaKey<T extends { $schema?: string }>(input: T): Omit<T, "$schema"> {
  const { $schema: _, ...rest } = input;
  return rest;
}
