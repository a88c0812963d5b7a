// SST's durations ("15 minutes", "1 hour") as seconds, for what the config derives from them:
// alarm thresholds and periods. Pure.

/** An SST-style duration (`"15 minutes"`, `"1 hour"`) in seconds; throws naming `where`. */
export function durationSeconds(duration: string, where: string): number {
  const m = /^(\d+) (second|minute|hour|day)s?$/.exec(duration.trim());
  if (!m) throw new Error(`${where}: "${duration}" is not a duration such as "15 minutes" or "2 hours"`);
  const unit = { second: 1, minute: 60, hour: 3_600, day: 86_400 }[m[2] as "second"];
  return Number(m[1]) * unit;
}
