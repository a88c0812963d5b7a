/**
 * True when SNS refused a publish for its size: `Publish` answers `InvalidParameter` with
 * "Invalid parameter: Message too long" (the SDK names it `InvalidParameterException`), a
 * `PublishBatch` entry fails with that code and message, and a whole batch call over the limit
 * is `BatchRequestTooLong`. Anything else a publisher must not answer with a shorter message.
 */
export function refusedAsTooLong(err: unknown): boolean {
  const e = err as { name?: unknown; Code?: unknown; message?: unknown } | null;
  const name = typeof e?.name === "string" ? e.name : typeof e?.Code === "string" ? e.Code : "";
  if (name === "BatchRequestTooLong" || name === "BatchRequestTooLongException") return true;
  if (name !== "InvalidParameter" && name !== "InvalidParameterException") return false;
  return typeof e?.message === "string" && /\bmessage too long\b/i.test(e.message);
}
