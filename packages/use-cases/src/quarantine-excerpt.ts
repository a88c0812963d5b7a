import { redact } from "@fleet-auditor/http";

// A quarantined message is kept so that someone can see why it could not be processed, not to
// keep its body: an excerpt is enough to recognise it, and it is written twice (the item and the
// `byQuarantine` index) and re-read by the applications audit every run, so a malformed feed at
// 10 messages/s with whole 32 KB bodies would cost about $1,000 a month. The excerpt is redacted
// like every text from outside, so a credential in a broken body is not kept either.

/** The most of a quarantined body the status table keeps, in UTF-8 bytes. */
export const QUARANTINE_EXCERPT_BYTES = 4 * 1024;

/** What the status table keeps of a body it cannot process. */
export interface QuarantineExcerpt {
  /** The body's start, redacted, at most `cap` bytes, cut at a character boundary. */
  excerpt: string;
  /** The whole body's size in UTF-8 bytes. */
  bytes: number;
  /** True when the excerpt is not the whole body (cut, or something redacted in it). */
  truncated: boolean;
}

/**
 * The excerpt of a body: its first `cap` bytes, redacted. The redaction runs over twice that
 * much before the cut, so a credential that starts inside the excerpt and runs past its end is
 * still seen whole, and redacted.
 */
export function quarantineExcerpt(body: string, cap: number = QUARANTINE_EXCERPT_BYTES): QuarantineExcerpt {
  const bytes = Buffer.byteLength(body, "utf8");
  const redacted = redact(utf8Prefix(body, cap * 2));
  const excerpt = utf8Prefix(redacted, cap);
  return { excerpt, bytes, truncated: excerpt !== body };
}

/** The longest start of `text` within `max` UTF-8 bytes that ends on a whole character. */
function utf8Prefix(text: string, max: number): string {
  if (Buffer.byteLength(text, "utf8") <= max) return text;
  let used = 0;
  let end = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char, "utf8");
    if (used + size > max) break;
    used += size;
    end += char.length;
  }
  return text.slice(0, end);
}
