/**
 * Formats a time the way Go's `time.Time` marshals it: RFC 3339, nanosecond precision with
 * trailing zeros trimmed, so fractions of any length appear (`…16.309896Z`, `…00.5Z`, `…00Z`).
 */
export function goTime(epochMs: number, micros = 0): string {
  const iso = new Date(epochMs).toISOString(); // 2026-05-04T08:01:02.123Z
  const fraction = `${iso.slice(20, 23)}${String(micros % 1000).padStart(3, "0")}`.replace(/0+$/, "");
  return `${iso.slice(0, 19)}${fraction ? `.${fraction}` : ""}Z`;
}

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;
