import { NoStoreError } from "./errors.ts";
import type { Output } from "./output.ts";

/**
 * A list command's rows, from a store opened for reading (`open`, with `StoreUse` `read`) and
 * closed again. Where the embedded store is not there, a format that programs read (`json`, `yaml`,
 * `csv`) gets no rows, as from an empty store (exit 0: a script that lists silences before any
 * exist need not tell the two apart), and `table` gets the `NoStoreError` (exit 1): a person
 * reading "no runs" would take a mistyped `--state-dir` for a quiet fleet.
 *
 * @example
 * const runs = await listRows(output, () => openRuns(dir, env, "read"), (b) => b.store.recentRuns("failing", 20));
 */
export async function listRows<S extends { close(): Promise<void> }, R>(
  output: Output,
  open: () => Promise<S>,
  list: (store: S) => Promise<R[]>,
): Promise<R[]> {
  let store: S;
  try {
    store = await open();
  } catch (err) {
    if (err instanceof NoStoreError && output !== "table") return [];
    throw err;
  }
  try {
    return await list(store);
  } finally {
    await store.close();
  }
}
