/** The minimal logger the use cases write to (Powertools Logger fits). */
export interface RunLogger {
  info(message: string, ...extra: Array<Record<string, unknown>>): void;
  warn(message: string, ...extra: Array<Record<string, unknown>>): void;
}
