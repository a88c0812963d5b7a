import { isLoopbackHost, redact } from "@fleet-auditor/http";
import { KebConfigError } from "./errors.ts";

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
