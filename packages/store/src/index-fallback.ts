// Reading an index that replaces another: DynamoDB cannot change an index's key or projection in
// place, so the new one is added beside the old (docs/kubeedge.md, "Changing an index"). Until the new one
// can be read on a stage, readers ask the old one, so that no read fails in between.

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
  try {
    return await read(index);
  } catch (err) {
    if (!unreadableIndex(err, index)) throw err;
    return read(retiring);
  }
}

/** Whether `err` is DynamoDB saying that `index` is missing or backfilling. */
function unreadableIndex(err: unknown, index: string): boolean {
  if (!(err instanceof Error) || err.name !== "ValidationException") return false;
  return err.message.includes(`: ${index}`) && /specified index|backfilling/i.test(err.message);
}
