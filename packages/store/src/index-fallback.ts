// Reading an index that replaces another, or one a stage may not have: DynamoDB cannot change an
// index's key or projection in place, so the new one is added beside the old (docs/kubeedge.md,
// "Changing an index"), and `byNodeId` exists only where a stage asks for it (`nodeIndex`). Until
// an index can be read on a stage, readers ask the next way, so that no read fails in between.

/**
 * `read(index)`, or `read(retiring)` when DynamoDB says `index` cannot be read: the table does
 * not have it yet ("The table does not have the specified index: X") or it is still backfilling
 * ("Cannot read from backfilling global secondary index: X"), both a ValidationException naming
 * it. Any other failure is the read's own.
 */
export async function fromIndex<T>(
  index: string,
  retiring: string,
  read: (index: string) => Promise<T>,
): Promise<T> {
  return fromIndexes([index], read, () => read(retiring));
}

/**
 * `read` of the first of `indexes` that DynamoDB does not call missing or backfilling, in order,
 * or `otherwise()` (a scan, say) when none can be read. Any other failure is the read's own.
 *
 * @example
 * ```ts
 * import { fromIndexes } from "@fleet-auditor/store";
 * declare function query(index: string): Promise<string[]>;
 * declare function scan(): Promise<string[]>;
 * const ids = await fromIndexes(["byNodeId", "byNode"], query, scan);
 * ```
 */
export async function fromIndexes<T>(
  indexes: readonly string[],
  read: (index: string) => Promise<T>,
  otherwise: () => Promise<T>,
): Promise<T> {
  for (const index of indexes) {
    try {
      return await read(index);
    } catch (err) {
      if (!unreadableIndex(err, index)) throw err;
    }
  }
  return otherwise();
}

/** Whether `err` is DynamoDB saying that `index` is missing or backfilling. */
function unreadableIndex(err: unknown, index: string): boolean {
  if (!(err instanceof Error) || err.name !== "ValidationException") return false;
  return err.message.includes(`: ${index}`) && /specified index|backfilling/i.test(err.message);
}
