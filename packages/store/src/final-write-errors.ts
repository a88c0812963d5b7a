/**
 * The DynamoDB errors (the SDK error's `name`) that no retry of the same write can cure: the
 * item or a key is over DynamoDB's limits (an Application ID over the 2 KB key limit, an item
 * over 400 KB: `ValidationException`), an item collection is full, or the request cannot be
 * read. Retried, such a write fails until its records reach the DLQ; the store says so instead,
 * and its caller keeps the records with the reason.
 *
 * Everything else is worth retrying, and is not here on purpose: throttling
 * (`ProvisionedThroughputExceededException`, `ThrottlingException`, `RequestLimitExceeded`),
 * DynamoDB's own faults (`InternalServerError`), conflicts (`TransactionConflictException`),
 * timeouts and aborts, and what an operator mends (a missing table: `ResourceNotFoundException`;
 * `AccessDeniedException`): once mended, the DLQ's redrive writes those records.
 */
const FINAL_WRITE_ERRORS: ReadonlySet<string> = new Set([
  "ValidationException",
  "ItemCollectionSizeLimitExceededException",
  "SerializationException",
]);

/** Whether DynamoDB refused a write for good (see `FINAL_WRITE_ERRORS`): retrying it cannot help. */
export function isFinalWriteError(error: unknown): boolean {
  const name = (error as { name?: unknown } | null | undefined)?.name;
  return typeof name === "string" && FINAL_WRITE_ERRORS.has(name);
}
