import { createHash } from "node:crypto";

// The page makes no request of any kind: the policy allows the one inline style and the one
// inline script by their hashes, and nothing else (no 'unsafe-inline', no image, font, frame or
// connection source; inline SVG needs none). A `style="…"` attribute is refused too, so the page
// sizes its SVG with attributes, never with inline styles. `frame-ancestors` cannot be set from
// a meta element; a file opened from disk has no framing page to refuse anyway.

/** `'sha256-…'`: a CSP source that allows exactly this inline text. */
function sha256Source(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/** The report page's `Content-Security-Policy`, for its one style and its one script. */
export function reportPolicy(style: string, script: string): string {
  return [
    "default-src 'none'",
    `style-src ${sha256Source(style)}`,
    `script-src ${sha256Source(script)}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}
