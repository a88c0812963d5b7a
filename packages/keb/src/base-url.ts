import { isIP } from "node:net";
import { KebConfigError } from "./errors.ts";
import { redact } from "./redact.ts";

/** True for localhost, 127.0.0.0/8 and ::1: the only hosts plain http is allowed to. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return host === "::1";
}

/**
 * Parses a KEB or token endpoint URL. `https:` anywhere; `http:` only on loopback, so that a bearer
 * token never crosses a network in clear text. `user:pass@` in it is dropped: the auditor
 * authenticates with a token, and a URL is printed in errors. Throws `KebConfigError` naming the setting.
 */
export function parseEndpointUrl(raw: string, setting: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new KebConfigError(`${setting}: not a URL: ${JSON.stringify(redact(raw).slice(0, 200))}`);
  }
  url.username = "";
  url.password = "";
  if (url.protocol === "https:") return url;
  if (url.protocol === "http:" && isLoopbackHost(url.hostname)) return url;
  if (url.protocol === "http:") {
    throw new KebConfigError(
      `${setting}: plain http is allowed only to a loopback host; use https for ${url.host}`,
    );
  }
  throw new KebConfigError(`${setting}: unsupported protocol ${url.protocol}`);
}
