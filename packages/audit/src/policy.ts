/** When flagged runtimes notify. */
export interface AlertPolicy {
  /** Consecutive flagged runs before a runtime fires. Default 1. */
  fireAfterRuns: number;
  /** Consecutive clear runs before a firing runtime resolves. Default 1. */
  resolveAfterRuns: number;
  /** A runtime still firing after this long is sent again as a reminder, ms. Default 24 h. */
  repeatIntervalMs: number;
}

export const DEFAULT_POLICY: AlertPolicy = {
  fireAfterRuns: 1,
  resolveAfterRuns: 1,
  repeatIntervalMs: 24 * 3_600_000,
};
