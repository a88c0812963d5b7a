/** What a secret becomes in any text this product prints, logs, stores or sends. */
export const REDACTED = "[redacted]";

// `Bearer <token>`, `Basic <base64>`, `client_secret=…`, `"password": "…"`, a JWT, and the
// `user:pass@` of a URL: what a server echoing a request puts into an error body.
const PATTERNS: ReadonlyArray<[RegExp, string]> = [
  [/\b(Bearer|Basic)(\s+)[\w.~+/=-]+/gi, `$1$2${REDACTED}`],
  // Form and query fields: `password=…`, `client_secret=…`, `x-token=…`.
  [
    /\b((?:access_token|id_token|refresh_token|client_secret|password|passwd|api[_-]?key|secret|token)=)[^&\s"',;]+/gi,
    `$1${REDACTED}`,
  ],
  // JSON fields: `"password": "…"`.
  [
    /("(?:access_token|id_token|refresh_token|client_secret|password|passwd|api[_-]?key|secret|token|authorization)"\s*:\s*")[^"]*/gi,
    `$1${REDACTED}`,
  ],
  [/\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]{4,}/g, REDACTED],
  [/\b([a-z][\w+.-]*:\/\/)[^/\s@"']+@/gi, "$1"],
];

/**
 * A text with every known secret (as given, URL-encoded or base64) and everything shaped like a
 * credential replaced by `[redacted]`, and credentials stripped from URLs. Used on every error
 * text that carries what a server answered.
 */
export function redact(text: string, secrets: Iterable<string | undefined> = []): string {
  let out = text;
  for (const secret of secrets) {
    // Shorter values would redact ordinary words; no real secret is that short.
    if (!secret || secret.length < 6) continue;
    for (const form of new Set([
      secret,
      encodeURIComponent(secret),
      Buffer.from(secret).toString("base64"),
    ])) {
      out = out.split(form).join(REDACTED);
    }
  }
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** A URL as text without its `user:pass@`. */
export function withoutCredentials(url: URL): string {
  if (!url.username && !url.password) return url.href;
  const copy = new URL(url.href);
  copy.username = "";
  copy.password = "";
  return copy.href;
}

/**
 * Where a redirect points, as an error may quote it: the origin (`scheme://host:port`) of its
 * `Location`, resolved against the request's URL, and never its path, query, fragment or
 * `user:pass@`: a gateway may put anything there, the request it refused included. A `Location`
 * that is not an http(s) URL is "an unreadable location".
 */
export function redirectOrigin(location: string | null, requestUrl: string): string {
  if (location === null) return "nowhere";
  let url: URL;
  try {
    url = new URL(location, requestUrl);
  } catch {
    return "an unreadable location";
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url.origin : "an unreadable location";
}
